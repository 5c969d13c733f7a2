#!/bin/sh
# Pitch every line of a file, then wait for all those sessions to finish.
#
#   usage: examples/pitch-all.sh IDEAS_FILE [TIMEOUT_SECONDS]
#
# Blank lines and lines starting with # are skipped. Each other line becomes one session (through
# `crumb pitch`, i.e. a file in inbox/); a running daemon (`crumb watch`) does the work. Prints one
# line per pitch as it settles: PASS, FALLBACK (passed, but a role was played by a fallback adapter),
# WAITING (a PARTIAL verdict waits for a person: `crumb approve` or `crumb veto` it), DONE (finished
# without a pass) or TIMEOUT, with the session id and the pitch.
#
# Root: $CRUMB_ROOT, else the current folder (as for crumb itself). Program: $CRUMB, else `crumb`.
# Exit: the worst outcome, in this order: 2 some timed out or could not be pitched · 1 some finished
# without a pass · 3 some wait for a person · 4 some passed only with a fallback · 0 every session
# passed as bound · 64 usage error.

crumb=${CRUMB:-crumb}
ideas=$1
timeout=${2:-1800}

if [ -z "$ideas" ] || [ ! -f "$ideas" ]; then
    echo "usage: $0 IDEAS_FILE [TIMEOUT_SECONDS]   (one pitch per line; '$ideas' is not a file)" >&2
    exit 64
fi
case "$timeout" in
    ''|*[!0-9]*) echo "pitch-all: TIMEOUT_SECONDS must be a whole number, got '$timeout'" >&2; exit 64 ;;
esac
if ! command -v "$crumb" >/dev/null 2>&1; then
    echo "pitch-all: '$crumb' not found; install CRUMB or set CRUMB=/path/to/crumb" >&2
    exit 2
fi

root=${CRUMB_ROOT:-.}
work=$(mktemp -d "${TMPDIR:-/tmp}/crumb-pitch-all.XXXXXX") || exit 2
trap 'rm -rf "$work"' EXIT INT TERM

# 1. pitch every line (all are dropped before any waiting starts, so they run side by side)
n=0
failed=0
while IFS= read -r line || [ -n "$line" ]; do
    trimmed=$(printf '%s' "$line" | sed -e 's/^[[:space:]]*//' -e 's/[[:space:]]*$//')
    case "$trimmed" in ''|'#'*) continue ;; esac
    if session=$("$crumb" --root "$root" pitch -- "$trimmed"); then
        n=$((n + 1))
        printf '%s\n' "$session" > "$work/$n.id"
        printf '%s\n' "$trimmed" > "$work/$n.pitch"
        echo "pitched $session  $trimmed" >&2
    else
        failed=$((failed + 1))
        echo "pitch-all: could not pitch: $trimmed" >&2
    fi
done < "$ideas"

# 2. wait for all of them at once; each waiter records its exit code
deadline=$(( $(date +%s) + timeout ))
i=1
while [ "$i" -le "$n" ]; do
    (
        session=$(cat "$work/$i.id")
        # the daemon creates the session folder when it takes the pitch: wait for that first
        while [ ! -f "$root/sessions/$session/transcript.jsonl" ] && [ "$(date +%s)" -lt "$deadline" ]; do
            sleep 0.2
        done
        left=$(( deadline - $(date +%s) ))
        if [ ! -f "$root/sessions/$session/transcript.jsonl" ] || [ "$left" -le 0 ]; then
            code=2
        else
            "$crumb" --root "$root" wait "$session" --timeout "$left" >/dev/null 2>&1
            code=$?
        fi
        case "$code" in
            0) word=PASS ;;
            1) word=DONE ;;
            3) word=WAITING ;;
            4) word=FALLBACK ;;
            *) word=TIMEOUT; code=2 ;;
        esac
        printf '%s %s  %s\n' "$word" "$session" "$(cat "$work/$i.pitch")"
        echo "$code" > "$work/$i.code"
    ) &
    i=$((i + 1))
done
wait

# 3. the worst outcome decides the exit code (crumb wait's codes, ranked: pass 0 < fallback 4 <
#    waiting 3 < done 1 < timeout 2)
rank() { case "$1" in 0) echo 0 ;; 4) echo 1 ;; 3) echo 2 ;; 1) echo 3 ;; *) echo 4 ;; esac; }
worst=0
[ "$failed" -gt 0 ] && worst=2
i=1
while [ "$i" -le "$n" ]; do
    code=$(cat "$work/$i.code" 2>/dev/null || echo 2)
    [ "$(rank "$code")" -gt "$(rank "$worst")" ] && worst=$code
    i=$((i + 1))
done
echo "pitch-all: $n pitched, $failed failed to pitch; exit $worst" >&2
exit "$worst"
