# One program, every verdict: the first word of the input says what to do.
read -r -d '' -a words || true
case "${words[0]}" in
  add) echo $(( words[1] + words[2] )) ;;
  loop) while :; do :; done ;;
  alloc)
    block=x
    for _ in {1..20}; do block+=$block; done  # 1 MiB
    all=()
    for ((i = 0; i < words[1]; i++)); do all+=("$block$i"); done
    echo "${#all[@]}" ;;
  crash) exit 3 ;;
  peek) printf '%s\n' "$(< "${words[1]}")" ;;
esac
