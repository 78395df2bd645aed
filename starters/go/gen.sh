#!/usr/bin/env bash
# Generates the Go stubs of croupier/v1 from the .proto files in $1 (a checkout's proto/ folder)
# into gopath/src/croupier/v1 (import path "croupier/v1"), with Debian's protoc-gen-go and
# protoc-gen-go-grpc. The .proto files name no go_package: the M options give each its package.
set -euo pipefail
proto=${1:?usage: gen.sh PATH/TO/croupier/proto}
files=(croupier/v1/as_nas.proto croupier/v1/bot.proto croupier/v1/chips.proto
  croupier/v1/felduz.proto croupier/v1/fipsen.proto croupier/v1/scauver.proto
  croupier/v1/score.proto)
maps=()
for f in "${files[@]}"; do maps+=("--go_opt=M$f=croupier/v1;croupierv1" "--go-grpc_opt=M$f=croupier/v1;croupierv1"); done
mkdir -p gopath/src
protoc -I "$proto" --go_out=gopath/src --go-grpc_out=gopath/src "${maps[@]}" "${files[@]}"
