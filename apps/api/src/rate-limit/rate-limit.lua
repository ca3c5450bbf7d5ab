-- Fixed-window rate limit of one caller, atomic across every API process sharing this Redis.
-- KEYS[1]: the caller's per-minute counter; KEYS[2]: its per-day counter (same hash slot).
-- ARGV[1]: per-minute limit; ARGV[2]: per-day limit; ARGV[3]: 'count', or 'peek' to count nothing.
-- Returns {allowed (1 or 0), minute count, day count, Redis time in ms}.
--
-- Windows follow Redis's clock, not the callers': replicas with skewed clocks still share them.
-- Each counter expires the millisecond before its window ends (Redis keeps a key until now > expiry),
-- so the first request of the next window finds no counter and starts at 1.
local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
local minute_end = (math.floor(now / 60000) + 1) * 60000
local day_end = (math.floor(now / 86400000) + 1) * 86400000

local minute = tonumber(redis.call('GET', KEYS[1]) or '0')
local day = tonumber(redis.call('GET', KEYS[2]) or '0')

-- A refused request is not counted: the day budget is not burned by calls that were turned away.
if minute >= tonumber(ARGV[1]) or day >= tonumber(ARGV[2]) then
  return {0, minute, day, now}
end
if ARGV[3] == 'peek' then return {1, minute, day, now} end

minute = redis.call('INCR', KEYS[1])
if minute == 1 then redis.call('PEXPIREAT', KEYS[1], minute_end - 1) end
day = redis.call('INCR', KEYS[2])
if day == 1 then redis.call('PEXPIREAT', KEYS[2], day_end - 1) end
return {1, minute, day, now}
