import { serializedPage } from '../data-api/pagination';
import { SerializedJson, serializeReply } from './serialized-json';

describe('serialized JSON bodies', () => {
  it('are sent as they are; any other body is JSON.stringify-ed', () => {
    expect(serializeReply(new SerializedJson('{"a":1}'))).toBe('{"a":1}');
    expect(serializeReply({ error: { code: 'not_found' } })).toBe('{"error":{"code":"not_found"}}');
  });

  it.each([
    { data: ['{"id":"2"}', '{"id":"1"}'], next_cursor: 'AQ', has_more: true },
    { data: ['{"id":"1"}'], next_cursor: null, has_more: false },
    { data: [], next_cursor: null, has_more: false },
  ])('make a page of the same bytes as the envelope stringified (%j)', (page) => {
    const objects = { ...page, data: page.data.map((item) => JSON.parse(item) as unknown) };
    expect(serializedPage(page).text).toBe(JSON.stringify(objects));
  });
});
