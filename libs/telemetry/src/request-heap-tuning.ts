import { setFlagsFromString } from 'node:v8';

/**
 * Turns off V8's allocation-site pretenuring, for processes that serve many small concurrent requests
 * (the API, and bench/api's raw server so both run on the same heap policy).
 *
 * Under load a scavenge finds the rows of the queries in flight alive, and V8 concludes that objects made
 * where pg builds a row live long: from then on it allocates rows in the old generation. Every string,
 * array and Date such a row holds then survives each scavenge (old objects keep young ones alive until
 * the next full collection) and is copied, then promoted. On `/v1/rounds/{id}/tickets` that was ~1.3 MB
 * promoted per scavenge and 5–8 ms pauses; without pretenuring 0.19 MB and ~1.8 ms, and 10–35 % less
 * API CPU per request on the data routes (bench/PROFILE.md, tenth round).
 *
 * Set at run time rather than on node's command line because NODE_OPTIONS, which containers use for the
 * apps' flags (APP_NODE_FLAGS), refuses it; V8 reads the flag at each pretenuring decision.
 */
export function disableAllocationSitePretenuring(): void {
  setFlagsFromString('--no-allocation-site-pretenuring');
}
