#!/usr/bin/env bash
# A Croupier bot in bash + jq, over the stdio bridge: it plays a random legal action in any of
# the four games.
#
#   croupier check-bot "stdio:bash bot.sh" --game all
#
# Each stdin line is one arbiter message (a PlayResponse in protobuf's canonical JSON); the bot
# answers each decision with one line, a legal action id. Its first line is the hello that names
# it. One jq process (for the whole match) turns each decision into its entries, one word each:
# "ID" for a single action, "ID:LOWEST:HIGHEST:STEP" for a run of bets or raises. The loop picks
# an entry at random and, for a run, an amount among its 20 smallest, answering its id by
# arithmetic (ID + amount - LOWEST). Seeded from CROUPIER_SEED. Change the loop to play better.
set -euo pipefail
echo '{"hello": {"botName": "starter-bash", "botVersion": "1.0"}}' # names the bot
jq --unbuffered -r 'select(.decision) | [.decision.legalActions[]
  | if .amounts then "\(.id):\(.amounts.lowest):\(.amounts.highest):\(.amounts.step)"
    else "\(.id)" end] | join(" ")' |
  {
    RANDOM=$((${CROUPIER_SEED:-0} % 32768)) # seeded here: bash reseeds RANDOM in a subshell
    while read -r -a entries; do
      IFS=: read -r id lowest highest step <<<"${entries[RANDOM % ${#entries[@]}]}"
      if [ -z "${lowest:-}" ]; then
        echo "$id" # a single action (fold, call, a card...)
        continue
      fi
      step=$((step < 1 ? 1 : step))
      count=$(((highest - lowest) / step + 1))
      amount=$((lowest + step * (RANDOM % (count < 20 ? count : 20))))
      echo $((id + amount - lowest))
    done
  }
