# Sourced by scripts/test.sh and scripts/build.sh: `phase NAME` starts timing a phase and ends the
# previous one, `phase_end` ends the last. Each ended phase prints one line: wall time, the CPU
# time (user+sys) of the commands it ran, and the 1-minute load average at its end. The machine may
# be shared, so wall time alone says little: CPU time is what a dedicated 2-core machine will see.
# CPU time comes from this shell's reaped children (/proc/PID/stat cutime + cstime), so it counts
# every process the phase waited for, Chromium and compilers included. PID is $BASHPID, not $$:
# a ( subshell ) that times its own phases (the builds and test groups that run side by side)
# counts its own children, not its parent's. Source this file again at the top of such a
# subshell, so its "total" starts there.
#
# A job that runs in the background beside the phases and prints its own "time:" lines is
# collected by this shell whenever it ends, so its CPU time would land in the phase it ends
# during. To keep it out of that phase's line: the job calls `phase_record_cpu FILE` as it exits
# (e.g. `trap 'phase_record_cpu FILE' EXIT`), and this shell registers it with
# `phase_background PID FILE` right after starting it; a phase then leaves out the CPU time of the
# registered jobs that ended during it. The "total" line still counts them.
_phase_name=
_phase_pid=$BASHPID
_phase_stat() { # the fields of /proc/PID/stat after "(comm) ": $1 is field 3
  local stat
  stat=$(</proc/"$1"/stat)
  echo "${stat##*) }"
}
_phase_cpu() { # children's user+sys in clock ticks; called as $(_phase_cpu), so not $BASHPID here
  # shellcheck disable=SC2046
  set -- $(_phase_stat "$_phase_pid")
  echo $(( ${14} + ${15} ))  # fields 16 (cutime) and 17 (cstime) of the full line
}
# This shell's own CPU time and its collected children's, in ticks, into FILE.
phase_record_cpu() {
  local pid=$BASHPID  # here: inside $( ) it would be that subshell's
  # shellcheck disable=SC2046
  set -- "$1" $(_phase_stat "$pid")
  echo $(( ${13} + ${14} + ${15} + ${16} )) >"$1"  # fields 14-17: utime, stime, cutime, cstime
}
_phase_bg=()       # "PID:FILE" of registered background jobs not yet seen to have ended
_phase_bg_ticks=0  # CPU ticks of the registered jobs that have ended (and so were collected)
phase_background() {
  _phase_bg+=("$1:$2")
}
# A registered job that is gone has been collected by this shell: its ticks are in cutime now.
_phase_collect_background() {
  local entry pid file rest=()
  for entry in ${_phase_bg[@]+"${_phase_bg[@]}"}; do
    pid=${entry%%:*} file=${entry#*:}
    if ! kill -0 "$pid" 2>/dev/null; then
      [ ! -s "$file" ] || _phase_bg_ticks=$(( _phase_bg_ticks + $(<"$file") ))
    else
      rest+=("$entry")
    fi
  done
  _phase_bg=(${rest[@]+"${rest[@]}"})
}
# This shell's children's CPU ticks without the registered background jobs': a job that ends
# while the ticks are read is collected on one side of the read or the other, so read again.
_phase_cpu_own() {
  local jobs cpu
  while :; do
    _phase_collect_background
    jobs=${#_phase_bg[@]}
    cpu=$(_phase_cpu)
    _phase_collect_background
    [ "${#_phase_bg[@]}" != "$jobs" ] || break
  done
  _phase_cpu_now=$(( cpu - _phase_bg_ticks ))
}
phase_end() {
  [ -n "$_phase_name" ] || return 0
  local end cpu load
  end=$(date +%s.%N)
  _phase_cpu_own
  cpu=$_phase_cpu_now
  read -r load _ </proc/loadavg
  awk -v n="$_phase_name" -v w="$(awk -v a="$_phase_start" -v b="$end" 'BEGIN { print b - a }')" \
      -v c="$(( cpu - _phase_cpu0 ))" -v t="$(getconf CLK_TCK)" -v l="$load" \
      'BEGIN { printf "time: %-35s wall %6.1f s  cpu %6.1f s  load %s\n", n, w, c / t, l }'
  _phase_name=
}
phase() {
  phase_end
  _phase_name=$1
  _phase_start=$(date +%s.%N)
  _phase_cpu_own
  _phase_cpu0=$_phase_cpu_now
}
_run_start=$(date +%s.%N)
_run_cpu0=$(_phase_cpu)
# One line for the whole script so far, in the same form, background jobs included.
phase_total() {
  phase_end
  _phase_name=total
  _phase_start=$_run_start
  _phase_cpu_own
  _phase_cpu0=$(( _run_cpu0 - _phase_bg_ticks ))
  phase_end
}
