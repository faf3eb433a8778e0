-- wrk script for `npm run bench`: random paths from a file, optional API key and If-None-Match,
-- and a JSON summary line. Usage: wrk -s bench/wrk.lua URL -- PATHS_FILE [KEY] [ETAG]
local paths = {}
init = function(args)
  for line in io.lines(args[1]) do paths[#paths + 1] = line end
  if args[2] and args[2] ~= "" then wrk.headers["X-API-Key"] = args[2] end
  if args[3] and args[3] ~= "" then wrk.headers["If-None-Match"] = args[3] end
  math.randomseed(os.time() + math.floor(os.clock() * 1000000))
end
request = function()
  return wrk.format("GET", paths[math.random(#paths)])
end
done = function(summary, latency, requests)
  local e = summary.errors
  io.write(string.format('{"requests":%d,"duration_us":%d,"p50":%.3f,"p99":%.3f,"errors":%d,"non2xx":%d}\n',
    summary.requests, summary.duration, latency:percentile(50) / 1000, latency:percentile(99) / 1000,
    e.connect + e.read + e.write + e.timeout, e.status))
end
