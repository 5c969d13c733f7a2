"""The one interface a harness implements, built-in or third party.

A harness says who it is (name, provider), how to find what it drives (an executable on PATH, or a
server it probes), when CRUMB runs inside it (ambient variables), how a binding string names its
model, what its exit codes mean, how it signs in, and what its tokens cost; and it runs a role
(`run`, the `Adapter` protocol of crumb/actors/base.py). Only `name` and `run` are required: every
other part has a default here. A harness registers itself through the `crumb.harnesses` entry-point
group (registry.py), the built-ins exactly as a third-party package would.

CLI harnesses share one run skeleton: cli_harness.py.
"""

from __future__ import annotations

import os
import shutil
import threading
from collections.abc import Mapping
from pathlib import Path
from typing import Any, ClassVar

from crumb.actors.base import ActorRequest, ActorResult, Binding, ProgressFn


class Harness:
    """A harness: what bindings, pre-flight, `crumb doctor`, presets and prices need to know of it."""

    #: what bindings, presets and `/swap` call it ("claude", "openai", ...)
    name: ClassVar[str] = ""
    #: the provider whose prices and defaults apply when a binding names none (None: the binding says)
    provider: ClassVar[str | None] = None
    #: one line for `crumb doctor` and the README: what runs
    summary: ClassVar[str] = ""
    #: the executable it drives, found on PATH (binding option `bin` overrides); None: not a CLI
    executable: ClassVar[str | None] = None
    #: how to install what it drives (shown by `crumb doctor` and pre-flight)
    install: ClassVar[str] = ""
    #: variables whose presence means CRUMB runs inside this harness's own CLI (ambient detection)
    ambient: ClassVar[tuple[str, ...]] = ()
    #: variables holding a key or token, and files under HOME whose presence means it is signed in
    sign_in_vars: ClassVar[tuple[str, ...]] = ()
    sign_in_files: ClassVar[tuple[str, ...]] = ()
    #: the model it uses when a binding names none, where that is fixed (prices are checked for it)
    default_model: ClassVar[str | None] = None
    #: exit code -> what it means (the error names it)
    exit_codes: ClassVar[Mapping[int, str]] = {}

    def run(self, request: ActorRequest, progress: ProgressFn, cancel: threading.Event) -> ActorResult:
        """Do the role's work; raise ActorError on failure. Must return soon after `cancel` is set."""
        raise NotImplementedError(f"harness {self.name!r} does not implement run()")

    # ------------------------------------------------------------------ bindings

    def binding(self, rest: str, spec: str, *, partial: bool) -> tuple[str | None, str | None, dict[str, Any]]:
        """(provider, model, options) from what follows `name:` in a binding string ('' for none).
        ValueError naming the fix for a string this harness cannot take."""
        if any(c.isspace() for c in rest):
            raise ValueError(f"{spec!r}: a model name has no spaces (only command: takes arguments)")
        return self.provider, rest or None, {}

    def label(self, binding: Binding) -> str:
        """The binding as a flag or a front matter line would write it."""
        return f"{self.name}:{binding.model}" if binding.model else self.name

    def check(self, binding: Binding) -> None:
        """ValueError naming the fix when a whole binding (a TOML table, read key by key) lacks what this
        harness needs."""

    # ------------------------------------------------------------------ can it run here?

    def find(self, binding: Binding, env: Mapping[str, str]) -> str | None:
        """The path of the executable this binding runs (option `bin`, else `executable`), or None."""
        name = str(binding.options.get("bin") or self.executable or "")
        if not name:
            return None
        if os.sep in name:
            return name if os.access(name, os.X_OK) else None
        return shutil.which(name, path=env.get("PATH", os.defpath))

    def why_not(self, binding: Binding, env: Mapping[str, str], timeout: float) -> tuple[str, str] | None:
        """None when this (rooted) binding can start here, else (reason, fix). Pre-flight asks it."""
        if self.executable is None and not binding.options.get("bin"):
            return None
        fix = f"install it ({self.install})" if self.install else "install it"
        return executable_problem(str(binding.options.get("bin") or self.executable), env, fix)

    def signed_in(self, env: Mapping[str, str]) -> str | None:
        """How it signs in here ("$X is set", "~/.x exists"), None when no sign-in is found. Never reads
        a credentials file, only looks for it."""
        for var in self.sign_in_vars:
            if env.get(var):
                return f"${var} is set"
        home = Path(env.get("HOME") or Path.home())
        for name in self.sign_in_files:
            if (home / name).exists():
                return f"{name} exists"
        return None

    def credentials_hint(self) -> str:
        """How to sign in, for `crumb doctor` when `signed_in` found nothing."""
        ways = [f"run `{self.executable}` once and log in"] if self.executable else []
        if self.sign_in_vars:
            ways.append(f"set {self.sign_in_vars[0]}")
        return ", or ".join(ways) or "nothing to sign in to"

    def exit_meaning(self, code: int | None) -> str:
        """What an exit code of what it drives stands for."""
        return self.exit_codes.get(code, "failed") if code is not None else "failed"

    # ------------------------------------------------------------------ cost

    def price(self, provider: str | None, model: str | None) -> Mapping[str, float] | None:
        """$/Mtok {"input", "output"} for tokens of this model (prices.toml), None when unknown."""
        from crumb.actors.harness.prices import lookup

        provider = provider or self.provider
        if provider is None and model and "/" in model:  # "ollama/qwen2.5-coder" names its provider
            provider, model = model.split("/", 1)
        return lookup(provider, model) if provider else None


def executable_problem(name: str, env: Mapping[str, str], fix: str) -> tuple[str, str] | None:
    """None when `name` (a bare name on PATH, or a path) runs; else (reason, fix)."""
    if os.sep not in name:
        return None if shutil.which(name, path=env.get("PATH", os.defpath)) else (f"{name!r} is not on PATH", fix)
    if not os.path.isfile(name):
        return f"{name} does not exist", "fix the path (a relative one is read from the project root)"
    if not os.access(name, os.X_OK):
        return f"{name} is not executable", f"chmod +x {name}"
    return None
