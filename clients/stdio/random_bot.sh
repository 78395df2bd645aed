#!/usr/bin/env bash
# A random Croupier bot in bash + jq, for the stdio bridge: croupier check-bot "stdio:bash random_bot.sh"
# Each stdin line is one arbiter message in canonical JSON; one jq process (for the whole match)
# turns each decision into the list of its legal action ids (an entry with "amounts", a run of bets
# or raises, into every id of the run), and the loop answers each with one of them, one line per
# decision. Seeded from CROUPIER_SEED, so a match with --seed replays the same.
set -euo pipefail
# the optional hello (first line): the name and version the match shows for this bot
echo '{"hello": {"botName": "random-bash", "botVersion": "1.0"}}'
jq --unbuffered -r 'select(.decision) | [.decision.legalActions[]
  | if .amounts then (.id as $id | .amounts as $r
      | range($id; $id + $r.highest - $r.lowest + 1; [$r.step, 1] | max))
    else .id end] | map(tostring) | join(" ")' |
  {
    RANDOM=$((${CROUPIER_SEED:-0} % 32768)) # seeded here: bash reseeds RANDOM in a subshell
    while read -r -a ids; do
      echo "${ids[RANDOM % ${#ids[@]}]}"
    done
  }
