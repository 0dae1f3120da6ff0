-- wrk script for scripts/bench-orders.sh (prepended with `users` and `plato`):
-- alternates POST …/lineas (+1) and PUT …/lineas/{id} (back to 1), round
-- robin over the 64 users.
local i = 0
request = function()
  i = i + 1
  local u = users[(math.floor(i / 2) % #users) + 1]
  local headers = { ["Content-Type"] = "application/json", ["Authorization"] = "Bearer " .. u.token }
  if i % 2 == 0 then
    return wrk.format("POST", "/pedidos/" .. u.pedido .. "/lineas", headers, '{"plato_id": ' .. plato .. ', "cantidad": 1}')
  else
    return wrk.format("PUT", "/pedidos/" .. u.pedido .. "/lineas/" .. u.linea, headers, '{"cantidad": 1}')
  end
end
