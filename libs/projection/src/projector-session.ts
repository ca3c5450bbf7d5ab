/**
 * The Postgres application_name of a projector's read-model sessions: `ops replay --new-log` refuses
 * while one is connected, since a running projector follows its own log into the switched-in schema.
 */
export const PROJECTOR_APPLICATION_NAME = 'projector';
