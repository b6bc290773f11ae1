# Sourced by scripts/test.sh and scripts/build.sh: `phase NAME` starts timing a phase and ends the
# previous one, `phase_end` ends the last. Each ended phase prints one line: wall time, the CPU
# time (user+sys) of the commands it ran, and the 1-minute load average at its end. The machine may
# be shared, so wall time alone says little: CPU time is what a dedicated 2-core machine will see.
# CPU time comes from this shell's reaped children (/proc/PID/stat cutime + cstime), so it counts
# every process the phase waited for, Chromium and compilers included. PID is $BASHPID, not $$:
# a ( subshell ) that times its own phases (the builds and test groups that run side by side)
# counts its own children, not its parent's. Source this file again at the top of such a
# subshell, so its "total" starts there.
_phase_name=
_phase_pid=$BASHPID
_phase_cpu() { # children's user+sys in clock ticks; called as $(_phase_cpu), so not $BASHPID here
  local stat
  stat=$(</proc/$_phase_pid/stat)
  stat=${stat##*) }  # fields after "(comm) "
  # shellcheck disable=SC2086
  set -- $stat
  echo $(( ${14} + ${15} ))  # fields 16 (cutime) and 17 (cstime) of the full line
}
phase_end() {
  [ -n "$_phase_name" ] || return 0
  local end cpu load
  end=$(date +%s.%N)
  cpu=$(_phase_cpu)
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
  _phase_cpu0=$(_phase_cpu)
}
_run_start=$(date +%s.%N)
_run_cpu0=$(_phase_cpu)
# One line for the whole script so far, in the same form.
phase_total() {
  phase_end
  _phase_name=total
  _phase_start=$_run_start
  _phase_cpu0=$_run_cpu0
  phase_end
}
