#!/usr/bin/env bash
# Certificates for the AEAT stand-in (scripts/aeat-standin.py), made with
# openssl in DIR: a test authority (ca.pem), the stand-in's server
# certificate for 127.0.0.1 (server.pem, server.key), and the taxpayer's
# PKCS#12 files signed by that authority, password "clave-de-prueba":
# cliente.p12 (valid for a year) and caducado.p12 (expired in 2021).
# The subject is the company's, as the FNMT's: O, serialNumber IDCES-…/organizationIdentifier VATES-….
#   aeat-test-certs.sh DIR [NIF] [NAME]
set -euo pipefail
DIR=$1; NIF=${2:-B12345674}; NAME=${3:-Casa Pepe S.L.}
mkdir -p "$DIR"; cd "$DIR"
q() { openssl "$@" >/dev/null 2>&1 || { echo "aeat-test-certs: openssl $1 failed" >&2; openssl "$@"; exit 1; }; }
q req -x509 -newkey rsa:2048 -nodes -keyout ca.key -out ca.pem -days 3650 -subj "/C=ES/O=Autoridad de pruebas/CN=Autoridad de pruebas comanda"
q req -newkey rsa:2048 -nodes -keyout server.key -out server.csr -subj "/C=ES/O=Suplente AEAT/CN=127.0.0.1"
printf 'subjectAltName=IP:127.0.0.1,DNS:localhost\nextendedKeyUsage=serverAuth\n' > server.ext
q x509 -req -in server.csr -CA ca.pem -CAkey ca.key -CAcreateserial -out server.pem -days 825 -extfile server.ext
q req -newkey rsa:2048 -nodes -keyout cliente.key -out cliente.csr -utf8 \
  -subj "/C=ES/O=$NAME/organizationIdentifier=VATES-$NIF/serialNumber=IDCES-$NIF/CN=$NAME - representante"
printf 'extendedKeyUsage=clientAuth\n' > cliente.ext
q x509 -req -in cliente.csr -CA ca.pem -CAkey ca.key -CAcreateserial -out cliente.pem -days 365 -extfile cliente.ext
q pkcs12 -export -inkey cliente.key -in cliente.pem -out cliente.p12 -passout pass:clave-de-prueba
# Expired: signed by `openssl ca` with dates in the past.
mkdir -p ca-db; : > ca-db/index.txt; echo 1000 > ca-db/serial
cat > ca.cnf <<CNF
[ca]
default_ca = test
[test]
database = ca-db/index.txt
serial = ca-db/serial
new_certs_dir = ca-db
certificate = ca.pem
private_key = ca.key
default_md = sha256
policy = any
copy_extensions = none
unique_subject = no
[any]
countryName = optional
organizationName = optional
organizationIdentifier = optional
serialNumber = optional
commonName = supplied
CNF
q ca -batch -config ca.cnf -utf8 -startdate 20200101000000Z -enddate 20210101000000Z -in cliente.csr -out caducado.pem -extfile cliente.ext
q pkcs12 -export -inkey cliente.key -in caducado.pem -out caducado.p12 -passout pass:clave-de-prueba
rm -f ./*.csr ./*.ext
