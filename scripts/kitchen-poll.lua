-- wrk script for scripts/bench-kitchen.sh (prepended with `token`): a kitchen
-- tablet's poll of GET /cocina/pedidos with If-None-Match, keeping the last
-- tag it was given (per wrk thread; run with -t1).
local etag = nil
request = function()
  local headers = { ["Authorization"] = "Bearer " .. token }
  if etag then headers["If-None-Match"] = etag end
  return wrk.format("GET", "/cocina/pedidos", headers)
end
response = function(status, headers, body)
  if status == 200 then etag = headers["ETag"] end
end
