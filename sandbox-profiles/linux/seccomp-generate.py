#!/usr/bin/python3
"""Compiles sandbox-profiles/linux/seccomp.json into one classic-BPF program per architecture.

libseccomp (Debian: apt-get install python3-seccomp) does the compiling, so the programs carry
its architecture check (a syscall made through another ABI, e.g. i386's int 0x80 or x32 on
x86_64, hits `badArchitecture`) and its syscall tables. The outputs are committed next to the
policy so that installing Travsr needs neither libseccomp nor a C compiler; the host reads
seccomp-<arch>.bpf and hands it to bwrap (--seccomp FD). test/sandbox/seccomp-blobs.test.ts
runs this script into a scratch directory and fails when the committed files differ.

usage: seccomp-generate.py [--out DIR]     (default DIR: the directory of this script)
"""

import errno
import hashlib
import json
import os
import sys

try:
    import seccomp
except ImportError:
    sys.exit(
        "seccomp-generate.py: the libseccomp Python bindings are missing; "
        "install them (Debian/Ubuntu: apt-get install python3-seccomp) and run this with /usr/bin/python3"
    )

HERE = os.path.dirname(os.path.abspath(__file__))
POLICY = os.path.join(HERE, "seccomp.json")
ARCHES = {"x86_64": seccomp.Arch.X86_64, "aarch64": seccomp.Arch.AARCH64}
BAD_ARCH = {"kill-process": seccomp.KILL_PROCESS, "kill-thread": seccomp.KILL}


def fail(what):
    sys.exit(f"seccomp-generate.py: {POLICY}: {what}")


def errno_of(rule):
    name = rule.get("errno")
    if name not in ("EPERM", "ENOSYS", "EACCES", "EINVAL", "EAFNOSUPPORT"):
        fail(f"rule {rule.get('syscalls')}: errno must be EPERM, ENOSYS, EACCES, EINVAL or EAFNOSUPPORT")
    return seccomp.ERRNO(getattr(errno, name))


def conditions(rule):
    """Each element is the argument list of one libseccomp rule (a rule ANDs its arguments)."""
    if "anyBitOf" in rule:
        # One rule per bit: libseccomp refuses two comparisons of one argument in one rule.
        return [[seccomp.Arg(rule["arg"], seccomp.MASKED_EQ, bit, bit)] for bit in rule["anyBitOf"].values()]
    if "maskedEquals" in rule:
        m = rule["maskedEquals"]
        return [[seccomp.Arg(rule["arg"], seccomp.MASKED_EQ, m["mask"], v)] for v in m["values"].values()]
    if "onlyValues" in rule:
        # Every value between the allowed ones, then everything above the last (as Flatpak).
        allowed = sorted(rule["onlyValues"].values())
        gaps = [v for v in range(allowed[-1]) if v not in allowed]
        return [[seccomp.Arg(rule["arg"], seccomp.EQ, v)] for v in gaps] + [[seccomp.Arg(rule["arg"], seccomp.GE, allowed[-1] + 1)]]
    if "notEqual" in rule:
        return [[seccomp.Arg(rule["arg"], seccomp.NE, rule["notEqual"])]]
    return [[]]


def compile_arch(policy, arch):
    f = seccomp.SyscallFilter(defaction=seccomp.ALLOW)
    f.set_attr(seccomp.Attr.ACT_BADARCH, BAD_ARCH[policy["badArchitecture"]])
    # A new filter holds the native architecture; keep exactly the one asked for.
    if not f.exist_arch(arch):
        f.add_arch(arch)
        f.remove_arch(seccomp.Arch.NATIVE)
    for rule in policy["rules"]:
        action = errno_of(rule)
        for name in rule["syscalls"]:
            if seccomp.resolve_syscall(arch, name) == -1:
                fail(f"{name} is not a system call libseccomp knows (a typo?)")
            if seccomp.resolve_syscall(arch, name) < 0:
                continue  # a pseudo number: not a syscall of this architecture
            for args in conditions(rule):
                f.add_rule(action, name, *args)
    path = os.path.join(OUT, f"seccomp-{ARCH_NAME[arch]}.bpf")
    with open(path, "wb") as out:
        f.export_bpf(out)
    return path


def sha256(path):
    with open(path, "rb") as fh:
        return hashlib.sha256(fh.read()).hexdigest()


if __name__ == "__main__":
    OUT = HERE
    if len(sys.argv) == 3 and sys.argv[1] == "--out":
        OUT = os.path.abspath(sys.argv[2])
    elif len(sys.argv) != 1:
        sys.exit(__doc__.strip().splitlines()[-1])
    with open(POLICY, encoding="utf-8") as fh:
        policy = json.load(fh)
    if policy.get("badArchitecture") not in BAD_ARCH:
        fail(f"badArchitecture must be one of {', '.join(BAD_ARCH)}")
    ARCH_NAME = {ARCHES[a]: a for a in policy["architectures"]}
    blobs = {}
    for name in policy["architectures"]:
        if name not in ARCHES:
            fail(f"architecture {name} is not one of {', '.join(ARCHES)}")
        path = compile_arch(policy, ARCHES[name])
        blobs[name] = {"file": os.path.basename(path), "sha256": sha256(path)}
    api = seccomp.get_api()
    manifest = {
        "$comment": "Written by seccomp-generate.py; do not edit. The host refuses blobs whose policySha256 is not that of seccomp.json.",
        "policySha256": sha256(POLICY),
        "blobs": blobs,
    }
    with open(os.path.join(OUT, "seccomp-blobs.json"), "w", encoding="utf-8") as fh:
        json.dump(manifest, fh, indent=2)
        fh.write("\n")
    print(f"wrote {', '.join(b['file'] for b in blobs.values())} and seccomp-blobs.json to {OUT} (libseccomp API level {api})")
