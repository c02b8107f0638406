# bash completion for gpuf. The commands and their options come from gpuf's own --help, so they never fall behind
# the program; stores (.gpuf), bundles (.jsonl) and folders complete as arguments.

_gpuf_commands() {
    "$1" --help 2>/dev/null | awk '/^Commands:/ { listing = 1; next } listing && /^  [a-z]/ { print $1 }'
}

# Prints the options of one command, "--name" for a flag and "--name=" for one that takes a value.
_gpuf_options() {
    "$1" "$2" --help 2>/dev/null |
        awk '/^  -/ { for (i = 1; i <= NF; i++) { o = $i; sub(/,$/, "", o);
                          if (o ~ /^--[a-z]/) { printf "%s%s\n", o, ($(i + 1) ~ /^</ ? "=" : "") } } }'
}

_gpuf() {
    local cur="${COMP_WORDS[COMP_CWORD]}" prev="${COMP_WORDS[COMP_CWORD - 1]}" program="${COMP_WORDS[0]}"
    COMPREPLY=()
    if ((COMP_CWORD == 1)); then
        mapfile -t COMPREPLY < <(compgen -W "$(_gpuf_commands "${program}") --help --version" -- "${cur}")
        return 0
    fi
    local command="${COMP_WORDS[1]}" options
    options="$(_gpuf_options "${program}" "${command}")"
    # After an option that takes a value ("--results FILE"), complete a path.
    if [[ ${prev} == --* ]] && grep -qx -- "${prev}=" <<<"${options}"; then
        mapfile -t COMPREPLY < <(compgen -f -- "${cur}")
        return 0
    fi
    if [[ ${cur} == -* ]]; then
        mapfile -t COMPREPLY < <(compgen -W "${options//=/}" -- "${cur}")
        return 0
    fi
    # The filter pattern needs extglob; the user's setting is put back afterwards.
    local extglob
    extglob="$(shopt -p extglob)"
    shopt -s extglob
    mapfile -t COMPREPLY < <(compgen -f -X '!*.@(gpuf|jsonl|json|csv)' -- "${cur}"; compgen -d -- "${cur}")
    eval "${extglob}"
    return 0
}

complete -o filenames -F _gpuf gpuf
