/* A Croupier bot in C (the standard library only), over the stdio bridge: it plays a random legal
 * action in any of the four games.
 *
 *   cc -O2 -o bot bot.c && croupier check-bot "stdio:./bot" --game all
 *
 * Each stdin line is one arbiter message (a PlayResponse in protobuf's canonical JSON); the bot
 * answers each decision with one line, a legal action id. Its first line is the hello that names
 * it. It picks one entry of decision.legalActions at random; an entry with "amounts" (lowest,
 * highest, step) is a run of bets or raises, and the bot picks an amount among the run's 20
 * smallest and answers its id by arithmetic: id + amount - lowest. Seeded from CROUPIER_SEED.
 * Change choose() to make it play better. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *ws(const char *p) {
  while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r') p++;
  return p;
}

/* p at a '"': the character after the closing quote (NULL if unterminated). */
static const char *skip_string(const char *p) {
  for (p++; *p; p++) {
    if (*p == '\\' && p[1]) p++;
    else if (*p == '"') return p + 1;
  }
  return NULL;
}

/* The character after the JSON value at p (NULL if malformed). */
static const char *skip_value(const char *p) {
  p = ws(p);
  if (*p == '"') return skip_string(p);
  if (*p == '{' || *p == '[') {
    int depth = 0;
    while (*p) {
      if (*p == '"') {
        if (!(p = skip_string(p))) return NULL;
        continue;
      }
      if (*p == '{' || *p == '[') depth++;
      if (*p == '}' || *p == ']') {
        if (--depth == 0) return p + 1;
      }
      p++;
    }
    return NULL;
  }
  while (*p && !strchr(",}] \t\r\n", *p)) p++; /* number, true, false, null */
  return p;
}

/* obj at a '{': the value of member `key` (NULL if absent). */
static const char *member(const char *obj, const char *key) {
  size_t len = strlen(key);
  const char *p = ws(obj);
  if (*p != '{') return NULL;
  p = ws(p + 1);
  while (*p == '"') {
    const char *end = skip_string(p);
    if (!end) return NULL;
    int match = (size_t)(end - p - 2) == len && strncmp(p + 1, key, len) == 0;
    p = ws(end);
    if (*p != ':') return NULL;
    p = ws(p + 1);
    if (match) return p;
    if (!(p = skip_value(p))) return NULL;
    p = ws(p);
    if (*p != ',') return NULL;
    p = ws(p + 1);
  }
  return NULL;
}

static unsigned long long state;

static unsigned long long next_random(void) { /* xorshift64* */
  state ^= state >> 12;
  state ^= state << 25;
  state ^= state >> 27;
  return state * 2685821657736338717ULL;
}

static long number(const char *p) { return p ? strtol(p, NULL, 10) : 0; }

/* The id to play for one decision; legal points at its "legalActions" array (a random entry of
 * its first 512, the only ones kept). */
static long choose(const char *legal) {
  const char *entries[512];
  size_t n = 0;
  for (const char *p = ws(legal + 1); *p == '{' && n < 512; p = ws(p + 1)) {
    entries[n++] = p;
    if (!(p = skip_value(p))) break;
    p = ws(p);
    if (*p != ',') break;
  }
  if (n == 0) return 0;
  const char *entry = entries[next_random() % n];
  long id = number(member(entry, "id"));
  const char *run = member(entry, "amounts");
  if (!run || *run != '{') return id; /* a single action (fold, call, a card...) */
  long lowest = number(member(run, "lowest")), highest = number(member(run, "highest"));
  long step = number(member(run, "step"));
  if (step < 1) step = 1;
  long count = (highest - lowest) / step + 1;
  long amount = lowest + step * (long)(next_random() % (unsigned long long)(count < 20 ? count : 20));
  return id + amount - lowest;
}

int main(void) {
  const char *seed = getenv("CROUPIER_SEED");
  state = (seed ? strtoull(seed, NULL, 10) : 0) * 2 + 1;
  printf("{\"hello\": {\"botName\": \"starter-c\", \"botVersion\": \"1.0\"}}\n"); /* names it */
  fflush(stdout);
  char *line = NULL;
  size_t cap = 0;
  while (getline(&line, &cap, stdin) != -1) {
    const char *decision = member(line, "decision");
    const char *legal = decision ? member(decision, "legalActions") : NULL;
    if (!legal || *legal != '[') continue; /* welcome, events, matchEnd: nothing to answer */
    printf("%ld\n", choose(legal));
    fflush(stdout);
  }
  free(line);
  return 0;
}
