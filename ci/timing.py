#!/usr/bin/env python3
"""The timing table ci/test prints at its end (docs/ci.md): wall time, the apt and Maven phases, each module
(Maven's reactor summary and the summed time of its test classes) and the ten slowest test classes, read from
the surefire/failsafe XML reports. Every class over FLAG seconds is flagged, and every class over BUDGET seconds
whose class comment has no 'CI budget' line saying why (docs/ci.md).

    timing.py ROOT START APT_END END [MAVEN_LOG]     (times in epoch seconds)
"""
import re
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

FLAG = 120  # seconds: a class above it is flagged at every run
BUDGET = 60  # seconds: a class above it says why in its class comment
REACTOR = re.compile(r"^\[INFO\] (.+?) \.* ?(SUCCESS|FAILURE|SKIPPED)(?: \[\s*([\d:.]+) (s|min|h)\])?")


def mmss(seconds):
    seconds = int(round(seconds))
    return f"{seconds // 60}:{seconds % 60:02d}"


def reactor_seconds(value, unit):
    """Maven prints '12.345 s', '01:02 min' or '01:02 h'."""
    if unit == "s":
        return float(value)
    parts = [float(p) for p in value.split(":")]
    return (parts[0] * 60 + parts[1]) * (60 if unit == "h" else 1)


def module_names(root):
    """Maven's display name (<name>) of each module the root pom lists, by folder."""
    ns = {"m": "http://maven.apache.org/POM/4.0.0"}
    names = {}
    for module in ET.parse(root / "pom.xml").getroot().findall("m:modules/m:module", ns):
        name = ET.parse(root / module.text.strip() / "pom.xml").getroot().find("m:name", ns)
        names[module.text.strip()] = name.text.strip() if name is not None else module.text.strip()
    return names


def test_classes(root, since):
    """(module, class, pass, seconds, tests, failed) of each report written since {since} (older ones are of an
    earlier build); the pass is the reports folder's suffix (failsafe-reports-java25: java25)."""
    rows = []
    for report in sorted(root.glob("**/target/*-reports*/TEST-*.xml")):
        if report.stat().st_mtime < since:
            continue
        rel = report.relative_to(root)
        module = str(Path(*rel.parts[:rel.parts.index("target")]))
        folder = report.parent.name
        run = folder.split("-reports", 1)[1].lstrip("-") if "-reports-" in folder else ""
        try:
            suite = ET.parse(report).getroot()
        except ET.ParseError:
            continue
        failed = sum(int(suite.get(k, "0")) for k in ("failures", "errors"))
        rows.append((module, suite.get("name", report.stem[5:]), run, float(suite.get("time", "0") or 0),
                     int(suite.get("tests", "0")), failed))
    return rows


def says_why(root, module, cls):
    """Whether the class comment of test class {cls} holds a 'CI budget' line (why it takes over BUDGET seconds)."""
    source = root / module / "src/test/java" / (cls.replace(".", "/") + ".java")
    if not source.exists():
        return True  # not ours to judge (a generated or nested class)
    text = source.read_text(errors="replace")
    head = text[:text.find("class " + cls.rsplit(".", 1)[-1])]
    return "CI budget" in head


def reactor(log):
    """Maven's reactor summary: {display name: seconds}."""
    out = {}
    if log is None or not log.exists():
        return out
    summary = False
    for line in log.read_text(errors="replace").splitlines():
        if "Reactor Summary" in line:
            summary = True
            continue
        m = REACTOR.match(line) if summary else None
        if m and m.group(3):
            out[m.group(1).strip()] = reactor_seconds(m.group(3), m.group(4))
    return out


def main(argv):
    root = Path(argv[1])
    start, apt_end, end = (float(a) for a in argv[2:5])
    log = Path(argv[5]) if len(argv) > 5 else None
    classes = test_classes(root, start)
    walls = reactor(log)
    names = module_names(root)
    in_classes = sum(c[3] for c in classes)
    print()
    print("== ci/test timing (docs/ci.md) ==")
    print(f"total wall time            {mmss(end - start):>7}")
    print(f"  apt, Java 25             {mmss(apt_end - start):>7}")
    print(f"  maven verify             {mmss(end - apt_end):>7}   test classes {mmss(in_classes)}"
          " (summed: classes of parallel forks overlap)")
    print()
    print(f"{'module':<18}{'wall':>8}{'classes':>9}{'count':>7}")
    modules = list(names) + sorted({c[0] for c in classes} - set(names))
    for module in modules:
        mine = [c for c in classes if c[0] == module]
        wall = walls.get(names.get(module, ""))
        print(f"{module:<18}{(mmss(wall) if wall is not None else '-'):>8}{mmss(sum(c[3] for c in mine)):>9}"
              f"{len(mine):>7}")
    print()
    print("ten slowest test classes (s)")
    ranked = sorted(classes, key=lambda c: -c[3])
    for c in ranked[:10]:
        print(f"{c[3]:8.0f}  {c[0]}/{c[1].rsplit('.', 1)[-1]}{' (' + c[2] + ')' if c[2] else ''}"
              f"{'  ** over ' + str(FLAG) + ' s' if c[3] > FLAG else ''}")
    over = [c for c in ranked if c[3] > FLAG]
    for c in over[10:]:
        print(f"{c[3]:8.0f}  {c[0]}/{c[1].rsplit('.', 1)[-1]}  ** over {FLAG} s")
    print(f"{len(over)} classes over {FLAG} s; a class over {BUDGET} s says why in a 'CI budget' line of its"
          " class comment (docs/ci.md)")
    silent = sorted({c[0] + "/" + c[1].rsplit(".", 1)[-1] for c in classes
                     if c[3] > BUDGET and not says_why(root, c[0], c[1])})
    if silent:
        print(f"over {BUDGET} s without a 'CI budget' line in its class comment: " + ", ".join(silent))
    failed = [c for c in classes if c[5]]
    if failed:
        print("classes with failures: " + ", ".join(c[1].rsplit('.', 1)[-1] for c in failed))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
