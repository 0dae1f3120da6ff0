# Sourced by the benchmarks: aeat_standin DIR makes the test certificates in
# DIR/certs, starts the AEAT's stand-in on CPU 1 at nice 19 (TiempoEsperaEnvio
# 1 s, requests not held to the XSD: its cost is the load core's), sets
# STANDIN to its PID and exports the settings that send to it (envio pruebas).
aeat_standin() {
  local dir=$1
  scripts/aeat-test-certs.sh "$dir/certs"
  mkdir -p "$dir/aeat"
  taskset -c 1 nice -n 19 python3 scripts/aeat-standin.py --cert "$dir/certs/server.pem" --key "$dir/certs/server.key" \
    --ca "$dir/certs/ca.pem" --dir "$dir/aeat" --espera 1 --xsd "" > "$dir/standin.out" 2>"$dir/standin.err" &
  STANDIN=$!
  for _ in $(seq 1 100); do grep -q PORT "$dir/standin.out" 2>/dev/null && break; sleep 0.1; done
  export COMANDA_VERIFACTU_ENVIO=pruebas COMANDA_VERIFACTU_CERTIFICADO="$dir/certs/cliente.p12" COMANDA_VERIFACTU_CLAVE=clave-de-prueba \
    COMANDA_VERIFACTU_CA="$dir/certs/ca.pem" COMANDA_VERIFACTU_URL="https://127.0.0.1:$(awk '/PORT/{print $2}' "$dir/standin.out")/soap"
}
