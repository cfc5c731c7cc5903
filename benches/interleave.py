#!/usr/bin/env python3
"""Interleaved timing of whole commands: each round runs every command once, in a shuffled
order, and the medians are printed with their ratio to the first command's.

usage: python3 benches/interleave.py ROUNDS 'CMD1' 'CMD2' ...

hyperfine times one command's runs back to back, so when the machine's speed drifts (a
shared VM: the same walk took 144 to 175 ms from one minute to the next) the drift lands on
one command and not the other. Interleaved, every command sees the same drift. Commands are
split like a shell would (no pipes or redirections), looked up in PATH and started with
posix_spawnp, their output thrown away; three untimed runs each come first.
"""
import os
import random
import shlex
import statistics
import sys
import time


def main():
    if len(sys.argv) < 3 or not sys.argv[1].isdigit():
        sys.exit(__doc__)
    rounds = int(sys.argv[1])
    cmds = [shlex.split(c) for c in sys.argv[2:]]
    devnull = os.open(os.devnull, os.O_WRONLY)
    quiet = [(os.POSIX_SPAWN_DUP2, devnull, 1), (os.POSIX_SPAWN_DUP2, devnull, 2)]

    def run(argv):
        start = time.perf_counter()
        pid = os.posix_spawnp(argv[0], argv, os.environ, file_actions=quiet)
        _, status = os.waitpid(pid, 0)
        elapsed = time.perf_counter() - start
        if status != 0:
            sys.exit(f"interleave: {' '.join(argv)} failed ({status:#x})")
        return elapsed

    for argv in cmds:
        for _ in range(3):
            run(argv)
    times = [[] for _ in cmds]
    for _ in range(rounds):
        order = list(range(len(cmds)))
        random.shuffle(order)
        for i in order:
            times[i].append(run(cmds[i]))
    ref = statistics.median(times[0])
    for argv, t in zip(cmds, times):
        m = statistics.median(t)
        print(f"{m * 1e3:9.2f} ms  x{m / ref:5.3f}  {' '.join(argv)}")


if __name__ == "__main__":
    main()
