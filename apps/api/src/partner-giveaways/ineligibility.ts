import type { IneligibilityReason } from '@lottery/persistence';
import { PlainApiError } from '../http/plain-api-error';
import type { IneligibleDto } from './dto/partner-responses.dto';

/** The reasons a partner's request is refused, as the partner API words them (see README). */
const INVALID_PARTNER_TEXT = 'Invalid API key or partner not found';
export const REASON_TEXT: Record<IneligibilityReason, string> = {
  wallet_limit_reached: 'Wallet limit reached',
  quantity_exhausted: 'Free tickets limit reached',
  partner_not_found: INVALID_PARTNER_TEXT,
  partner_disabled: INVALID_PARTNER_TEXT,
};

/** 401 with `eligible: false`: an unknown key, or a partner that does not exist or is disabled. */
export function invalidPartner(): PlainApiError {
  return new PlainApiError(401, INVALID_PARTNER_TEXT, { eligible: false });
}

/**
 * A refusal as the partner API answers it: the wallet's or the partner's limit is a 200 answer with
 * `eligible: false`; a partner that vanished or was disabled since its key was checked is a 401.
 */
export function ineligible(reason: IneligibilityReason): IneligibleDto {
  if (reason === 'partner_not_found' || reason === 'partner_disabled') throw invalidPartner();
  return { eligible: false, error: REASON_TEXT[reason] };
}
