#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""The architecture rules of docs/architecture.md, checked against the code (./dev.sh check).

1. Includes follow docs/modules.txt: a file of src/MODULE/ or include/ppsbench/MODULE/ includes
   only its own module and the modules listed for it; apps/ includes only public headers.
   Eigen stays out of public headers, and libgpiod is included only by its backend files
   (gpio_*_v1.cpp, gpio_*_v2.cpp; the C++ bindings <gpiod.hpp> by v1's only).
2. docs/architecture.md quotes docs/modules.txt word for word, so the doc cannot drift.
3. The size rule: no function over 80 lines (Universal Ctags finds their ends) and no file
   over 400 lines unless a line near its top says `size:` and why.
4. A file's own names are its own in its target (the library, the app, each test program):
   what a .cpp file
   declares in an anonymous namespace, `static`, its namespace-scope variables and types and its
   macros are not declared by another .cpp file of the target in the same namespace. A unity
   build (PPSBENCH_UNITY_BUILD) compiles a target's files together in batches, so such a second
   declaration breaks it, or does once the batches move.
5. One SIMD switch: no file but include/ppsbench/core/simd_target.hpp tests the compiler's
   instruction-set macros (__SSE2__, __AVX2__, __x86_64__ ...); every SIMD site tests its
   PPSBENCH_HAVE_SSE2 or
   PPSBENCH_HAVE_AVX2_DISPATCH, and includes it first (an undefined macro reads as 0 in #if,
   which would silently build the portable path), so the CMake option PPSBENCH_PORTABLE_SIMD
   reaches every site.

Prints one line per violation (FILE:LINE: what and the fix) and exits 1 if there is any.
"""
import argparse
import pathlib
import re
import shutil
import subprocess
import sys

MAX_FUNCTION_LINES = 80
MAX_FILE_LINES = 400
INCLUDE = re.compile(r'^\s*#\s*include\s*([<"])([^>"]+)[>"]')
# A libgpiod backend file: one API's, of which CMakeLists.txt builds one set (libgpiod 1.6: v1,
# 2.x: v2). A backend-neutral file (gpio_v2_event_reader.cpp needs only <linux/gpio.h>) does not
# end in the API.
GPIOD_BACKEND = re.compile(r"^src/.+/gpio_[a-z_]+_(v1|v2)\.cpp$")


def read_modules(path):
    modules = {}
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        line = line.split("#", 1)[0].strip()
        if not line:
            continue
        name, sep, deps = line.partition(":")
        if not sep or not re.fullmatch(r"[a-z_]+", name.strip()):
            raise SystemExit(f"{path}:{number}: expected 'MODULE: DEPENDENCIES', got {line!r}")
        modules[name.strip()] = set(deps.split())
    for name, deps in modules.items():
        for dep in deps - modules.keys():
            raise SystemExit(f"{path}: {name} depends on unknown module {dep!r}")
    return modules


def cycles(modules):
    """The first dependency cycle found, as a list of module names, or None."""
    state = {}

    def visit(name, trail):
        state[name] = "open"
        for dep in sorted(modules[name]):
            if state.get(dep) == "open":
                path = trail + [name]
                return path[path.index(dep):] + [dep]
            if dep not in state:
                found = visit(dep, trail + [name])
                if found:
                    return found
        state[name] = "done"
        return None

    for name in sorted(modules):
        if name not in state:
            found = visit(name, [])
            if found:
                return found
    return None


def owner(relative, modules):
    """(kind, module) of a file: kind is 'module', 'app' or None (not held to the rules)."""
    parts = relative.parts
    if len(parts) >= 3 and parts[0] == "src" and parts[1] in modules:
        return "module", parts[1]
    if len(parts) >= 4 and parts[:2] == ("include", "ppsbench") and parts[2] in modules:
        return "module", parts[2]
    if parts and parts[0] == "apps":
        return "app", None
    return None, None


def included_module(target, modules):
    """(module, public) that an include names, or (None, None) for std and third-party headers."""
    parts = target.split("/")
    if parts[0] == "ppsbench":
        if len(parts) == 2:
            return "core", True  # the generated ppsbench/version.hpp
        return (parts[1], True) if parts[1] in modules else (None, None)
    if len(parts) >= 2 and parts[0] in modules:
        return parts[0], False
    return None, None


def check_includes(root, files, modules):
    problems = []
    for relative in files:
        kind, module = owner(relative, modules)
        if kind is None:
            continue
        text = (root / relative).read_text(encoding="utf-8", errors="replace")
        for number, line in enumerate(text.splitlines(), 1):
            match = INCLUDE.match(line)
            if not match:
                continue
            target = match.group(2)
            where = f"{relative}:{number}"
            if target.startswith("Eigen/") and relative.parts[0] == "include":
                problems.append(f"{where}: a public header includes <{target}>: keep Eigen in "
                                "src/stats/*.cpp")
            if target in ("gpiod.h", "gpiod.hpp"):
                backend = GPIOD_BACKEND.match(relative.as_posix())
                if not backend:
                    problems.append(f"{where}: only a libgpiod backend file (src/MODULE/…/"
                                    f"gpio_*_v1.cpp or gpio_*_v2.cpp) includes <{target}>")
                elif target == "gpiod.hpp" and backend.group(1) != "v1":
                    problems.append(f"{where}: the v2 backends use libgpiod's C API <gpiod.h> "
                                    "(the C++ bindings allocate per get/set_value)")
            dep, public = included_module(target, modules)
            if dep is None:
                continue
            if kind == "app":
                if not public:
                    problems.append(f"{where}: apps/ includes {dep}'s private header {target}: "
                                    f"use a public header of include/ppsbench/{dep}/")
                continue
            if dep != module and dep not in modules[module]:
                allowed = " ".join(sorted(modules[module])) or "nothing"
                problems.append(f"{where}: {module} includes {target}, but {module} depends on "
                                f"{allowed} (docs/modules.txt): move the code, or change the "
                                "table and docs/architecture.md")
            elif dep != module and not public:
                problems.append(f"{where}: {module} includes {dep}'s private header {target}: "
                                f"use a public header of include/ppsbench/{dep}/")
    return problems


def check_doc_quotes_table(root):
    table = (root / "docs/modules.txt").read_text(encoding="utf-8")
    doc = (root / "docs/architecture.md").read_text(encoding="utf-8")
    if table not in doc:
        return ["docs/architecture.md: does not quote docs/modules.txt word for word: copy the "
                "file into its ```text block"]
    return []


def function_lengths(root, files):
    """(lines, file, first line, name) of every function definition Universal Ctags finds."""
    ctags = shutil.which("ctags")
    if ctags is None:
        raise SystemExit("check_architecture: ctags is missing: apt-get install universal-ctags")
    sources = [str(f) for f in files if f.suffix in (".cpp", ".hpp")]
    if not sources:
        return []
    output = subprocess.run(
        [ctags, "--fields=+ne", "--c++-kinds=f", "--language-force=C++", "-o", "-"] + sources,
        cwd=root, check=True, capture_output=True, text=True).stdout
    found = []
    for row in output.splitlines():
        fields = row.split("\t")
        if len(fields) < 4 or fields[0].startswith("__anon"):
            continue
        line = end = None
        for field in fields[3:]:
            if field.startswith("line:"):
                line = int(field[5:])
            elif field.startswith("end:"):
                end = int(field[4:])
        if line is not None and end is not None:
            found.append((end - line + 1, fields[1], line, fields[0]))
    return found


def check_sizes(root, files):
    problems = []
    for lines, path, line, name in sorted(function_lengths(root, files), reverse=True):
        if lines > MAX_FUNCTION_LINES:
            problems.append(f"{path}:{line}: {name} is {lines} lines (at most "
                            f"{MAX_FUNCTION_LINES}): split it into named steps")
    for relative in files:
        text = (root / relative).read_text(encoding="utf-8", errors="replace").splitlines()
        if len(text) > MAX_FILE_LINES and not any("size:" in l for l in text[:10]):
            problems.append(f"{relative}: {len(text)} lines (at most {MAX_FILE_LINES}): split it "
                            "by purpose, or say why not in a 'size:' comment at its top")
    return problems


OWN_NAME_KINDS = {"function", "variable", "struct", "class", "union", "enum", "typedef", "macro"}


def own_names(root, sources):
    """(namespace, name) -> [(file, line)] of the names each .cpp file keeps to itself."""
    output = subprocess.run(
        [shutil.which("ctags") or "ctags", "--fields=+nsKZ", "--fields-c++=+{properties}",
         "--extras=-q", "--language-force=C++", "-o", "-"] + sources,
        cwd=root, check=True, capture_output=True, text=True).stdout
    names = {}
    for row in output.splitlines():
        fields = row.split("\t")
        if len(fields) < 4 or fields[3] not in OWN_NAME_KINDS or fields[0].startswith("__anon"):
            continue
        if fields[3] == "function" and re.fullmatch(r"[A-Z_]+", fields[0]):
            continue  # TEST(...) and its kin: a macro's use that Ctags takes for a function
        extra = dict(f.split(":", 1) for f in fields[4:] if ":" in f)
        scope = extra.get("scope", "namespace:")
        if not scope.startswith("namespace:") and "scope" in extra:
            continue  # a member, a local or an enumerator: not at namespace scope
        path = [p for p in scope[len("namespace:"):].split("::") if p]
        anonymous = any(p.startswith("__anon") for p in path)
        external_function = fields[3] == "function" and not anonymous and \
            "static" not in extra.get("properties", "")
        if external_function:
            continue  # one definition across the program anyway (or an overload)
        key = ("::".join(p for p in path if not p.startswith("__anon")), fields[0])
        names.setdefault(key, []).append((fields[1], int(extra.get("line", 0))))
    return names


def unity_targets(root, files):
    """The .cpp files of each target: the library (with either libgpiod API's backend files,
    never both), the app, each tests/MODULE/ program."""
    library = [str(f) for f in files if str(f).startswith("src/") and f.suffix == ".cpp"]
    targets = [[f for f in library
                if (m := GPIOD_BACKEND.match(f)) is None or m.group(1) == api]
               for api in ("v1", "v2")]
    targets.append([str(f) for f in files if str(f).startswith("apps/") and f.suffix == ".cpp"])
    tests = root / "tests"
    if tests.is_dir():
        targets += [[str(p.relative_to(root)) for p in sorted(d.glob("*_test.cpp"))]
                    for d in sorted(tests.iterdir()) if d.is_dir()]
    return [t for t in targets if t]


def check_unity_names(root, files):
    problems = []
    for sources in unity_targets(root, files):
        for (space, name), places in sorted(own_names(root, sources).items()):
            if len({path for path, _ in places}) < 2:
                continue
            first = places[0][0]
            for path, line in places[1:]:
                if path != first:
                    problems.append(
                        f"{path}:{line}: {name} is also declared in {first} (namespace "
                        f"{space or 'global'}); a unity build compiles both files together: "
                        "share one definition, or give each its own name")
    return problems


SIMD_TARGET = "include/ppsbench/core/simd_target.hpp"
COMPILER_SIMD = re.compile(r"^\s*#\s*(?:el)?if\b.*\b(__SSE\w*__|__AVX\w*__|__x86_64__|__i386__|"
                           r"__aarch64__|__ARM_NEON\w*)")
SWITCH_INCLUDE = re.compile(r'^\s*#\s*include\s*"ppsbench/core/simd_target\.hpp"')
SWITCH_USE = re.compile(r"^\s*#\s*(?:el)?if\b.*\b(PPSBENCH_HAVE_\w+)")


def check_simd_switch(root, files):
    problems = []
    for relative in files:
        if relative.as_posix() == SIMD_TARGET:
            continue
        included = False
        lines = (root / relative).read_text(encoding="utf-8", errors="replace").splitlines()
        for number, line in enumerate(lines, 1):
            included = included or SWITCH_INCLUDE.match(line)
            compiler = COMPILER_SIMD.match(line)
            if compiler:
                problems.append(f"{relative}:{number}: tests {compiler.group(1)}: test "
                                f"PPSBENCH_HAVE_SSE2 or PPSBENCH_HAVE_AVX2_DISPATCH of "
                                f"{SIMD_TARGET} instead, so PPSBENCH_PORTABLE_SIMD reaches it")
            switch = SWITCH_USE.match(line)
            if switch and not included:
                problems.append(f"{relative}:{number}: tests {switch.group(1)} before including "
                                f'"{SIMD_TARGET[len("include/"):]}" (undefined, it reads as 0): '
                                "include it")
    return problems


def source_files(root):
    files = []
    for top in ("src", "include", "apps"):
        base = root / top
        if base.is_dir():
            files += [p.relative_to(root) for p in sorted(base.rglob("*"))
                      if p.suffix in (".cpp", ".hpp") and p.is_file()]
    return files


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--root", type=pathlib.Path, default=pathlib.Path.cwd(),
                        help="the checkout to check (default: the current folder)")
    args = parser.parse_args()
    root = args.root.resolve()
    modules = read_modules(root / "docs/modules.txt")
    problems = []
    loop = cycles(modules)
    if loop:
        problems.append("docs/modules.txt: the dependencies go round: " + " -> ".join(loop))
    files = source_files(root)
    problems += check_doc_quotes_table(root)
    problems += check_includes(root, files, modules)
    problems += check_sizes(root, files)
    problems += check_unity_names(root, files)
    problems += check_simd_switch(root, files)
    for problem in problems:
        print(problem)
    if problems:
        print(f"check_architecture: {len(problems)} problem(s)", file=sys.stderr)
        return 1
    print(f"check_architecture: {len(files)} files hold to docs/modules.txt, the size rule, "
          "unique file-local names and the one SIMD switch")
    return 0


if __name__ == "__main__":
    sys.exit(main())
