# Sourced by scripts/fuzz.sh and scripts/fuzz-bench.sh: a harness's libFuzzer flags from its committed
# Corpus/fuzz/<harness>.options (OSS-Fuzz's format: a [libfuzzer] section of `name = value` lines) and its dictionary,
# so every run of a harness (CI, a long campaign, the planted-bug benchmark) fuzzes it the same way.

# fuzz_option HARNESS NAME DEFAULT: one option's value.
fuzz_option() {
    local value
    value=$(sed -n "s/^$2 = //p" "$ROOT/Corpus/fuzz/$1.options" 2>/dev/null)
    echo "${value:-$3}"
}

# fuzz_option_flags HARNESS [BINARY WORDS_DIR]: -name=value for every option (max_len 4096 when none is given) and
# -dict= for the dictionary, one per line. Given the harness binary, the dictionary is the committed one with the
# words the binary's code compares with (scripts/fuzz-words.py), kept in WORDS_DIR and made again when the binary is
# newer: what a run that fuzzes uses; a replay needs no dictionary.
fuzz_option_flags() {
    local harness=$1 binary=${2:-} words=${3:-} options=$ROOT/Corpus/fuzz/$1.options name value
    local dictionary=$ROOT/Corpus/fuzz/$harness.dict
    echo "-max_len=$(fuzz_option "$harness" max_len 4096)"
    if [ -f "$options" ]; then
        while IFS=' =' read -r name value; do
            case "$name" in ''|'#'*|'['*|max_len|dict) continue ;; esac
            echo "-$name=$value"
        done <"$options"
    fi
    if [ -n "$binary" ] && [ -f "$dictionary" ]; then
        mkdir -p "$words"
        if [ ! -f "$words/$harness.dict" ] || [ "$binary" -nt "$words/$harness.dict" ]; then
            python3 "$ROOT/scripts/fuzz-words.py" "$binary" "$dictionary" "$words/$harness.dict" >&2
        fi
        dictionary=$words/$harness.dict
    fi
    [ -f "$dictionary" ] && echo "-dict=$dictionary"
    return 0
}
