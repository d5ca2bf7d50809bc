-- Sliding windows of admitted request moments, one sorted set per (account, window).
-- KEYS: the windows, in the order they are checked.
-- ARGV[1]: window length in microseconds; ARGV[2]: this request's unique member;
-- ARGV[2 + i]: the limit of KEYS[i].
-- Returns {0, 0} when admitted, or {i, wait} when KEYS[i] is full: wait is the microseconds
-- until a slot frees. Redis's own clock is used, so instances with drifting clocks agree.
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000000 + tonumber(t[2])
local window = tonumber(ARGV[1])
for i, key in ipairs(KEYS) do
  local limit = tonumber(ARGV[i + 2])
  redis.call('ZREMRANGEBYSCORE', key, '-inf', now - window)
  local count = redis.call('ZCARD', key)
  if count >= limit then
    local wait = window
    if limit > 0 then
      -- The slot frees when the (count - limit + 1)-th oldest moment leaves the window.
      local freeing = redis.call('ZRANGE', key, count - limit, count - limit, 'WITHSCORES')
      wait = tonumber(freeing[2]) + window - now
    end
    return {i, wait}
  end
  redis.call('ZADD', key, now, ARGV[2])
  redis.call('PEXPIRE', key, math.ceil(window / 1000))
end
return {0, 0}
