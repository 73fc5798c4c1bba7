#!/usr/bin/env python3
"""Waits for the window to show something, through its state dump (the script's
dump-state-every; ui/state_dump.hpp), instead of sleeping for a fixed time.

  window_state_wait.py STATE EXPR [TIMEOUT_S] [WHAT]   wait until EXPR holds (s: the state)
  window_state_wait.py STATE --get EXPR                print EXPR's value now
  window_state_wait.py --pid PID STATE ...             also fail at once when PID has exited

EXPR is a Python expression over `s`, the dumped JSON (a dict). On a timeout the last state is
printed with WHAT, and the exit status is 1. A state that is being replaced is read again.
"""
import json
import os
import sys
import time


def read(path):
    try:
        with open(path) as f:
            return json.load(f)
    except (OSError, ValueError):
        return None


def alive(pid):
    if pid is None:
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        pass
    # A zombie (exited, not yet reaped by its shell) counts as gone.
    try:
        with open(f'/proc/{pid}/stat') as f:
            return f.read().rsplit(')', 1)[1].split()[0] != 'Z'
    except OSError:
        return True


def main():
    args = sys.argv[1:]
    pid = None
    if args[0] == '--pid':
        pid = int(args[1])
        args = args[2:]
    sys.argv = [sys.argv[0]] + args
    path, expr = sys.argv[1], sys.argv[2]
    if expr == '--get':
        deadline = time.monotonic() + 30
        while (s := read(path)) is None and time.monotonic() < deadline:
            time.sleep(0.05)
        print(eval(sys.argv[3], {}, {'s': s}))
        return 0
    timeout = float(sys.argv[3]) if len(sys.argv) > 3 else 60.0
    what = sys.argv[4] if len(sys.argv) > 4 else expr
    deadline = time.monotonic() + timeout
    s = None
    while time.monotonic() < deadline:
        if not alive(pid):
            print(f'the window exited while waiting for: {what}', file=sys.stderr)
            return 1
        s = read(path)
        if s is not None:
            try:
                if eval(expr, {}, {'s': s}):
                    return 0
            except (KeyError, TypeError, IndexError):
                pass
        time.sleep(0.05)
    print(f'timed out after {timeout:.0f} s waiting for: {what}\nlast state: {json.dumps(s)}',
          file=sys.stderr)
    return 1


if __name__ == '__main__':
    sys.exit(main())
