"""The run skeleton every agent-CLI harness shares (claude, codex, gemini, and a plugin's).

find the executable -> build argv -> (a private configuration home, when the CLI keeps state there)
-> run it under CRUMB's limits with the prompt on stdin, each stdout line to the harness's parser
-> progress flushed -> the harness turns parser + exit status into an ActorResult or an ActorError.

A subclass supplies `argv` and `parser`, and `finish`; it may override `environment` (variables to
add or remove), `home` (a private folder per run), `stdin`.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path
from typing import ClassVar

from crumb.actors.base import ActorRequest, ActorResult, ProgressFn
from crumb.actors.harness.common import JsonLines, child_env, executable_for, now, run_cli
from crumb.actors.harness.plugin import Harness
from crumb.actors.harness.private_home import private_home
from crumb.actors.harness.process import ProcessResult
from crumb.actors.harness.progress import Throttle
from crumb.actors.harness.roles import prompt_for


class CliHarness(Harness):
    """A harness that runs one CLI process per role run."""

    #: variables removed from the child's environment (e.g. ones that make a nested CLI refuse to start)
    remove_env: ClassVar[tuple[str, ...]] = ()
    #: True: each run gets a fresh private configuration folder, removed afterwards (private_home.py)
    private: ClassVar[bool] = False

    def run(self, request: ActorRequest, progress: ProgressFn, cancel: threading.Event) -> ActorResult:
        env = child_env(remove=self.remove_env)
        exe = executable_for(request, self.executable or self.name, env)
        argv = self.argv(exe, request, env)
        env.update(self.environment(request, argv, env))
        request.work_dir.mkdir(parents=True, exist_ok=True)
        throttle = Throttle(progress)
        parser = self.parser(request, throttle)
        started = now()
        with self.home(env) as variables:
            env.update(variables)
            proc = run_cli(self.name, request, argv, stdin_text=self.stdin(request), env=env, cancel=cancel,
                           on_line=parser)
            throttle.flush()
            return self.finish(request, proc, parser, started, env)

    # ------------------------------------------------------------------ what a CLI harness supplies

    def argv(self, exe: str, request: ActorRequest, env: Mapping[str, str]) -> list[str]:
        raise NotImplementedError

    def parser(self, request: ActorRequest, progress: Throttle) -> JsonLines:
        raise NotImplementedError

    def finish(self, request: ActorRequest, proc: ProcessResult, parser: JsonLines, started: float,
               env: Mapping[str, str]) -> ActorResult:
        """The result from what the parser read; ActorError (with usage) for a failed run. Runs while the
        private home (if any) still exists, with `env` as the CLI had it."""
        raise NotImplementedError

    # ------------------------------------------------------------------ optional hooks

    def environment(self, request: ActorRequest, argv: list[str], env: Mapping[str, str]) -> dict[str, str]:
        """Variables to set for this run (after argv is known: some depend on its flags)."""
        return {}

    def stdin(self, request: ActorRequest) -> str:
        return prompt_for(request)

    @contextmanager
    def home(self, env: Mapping[str, str]) -> Iterator[dict[str, str]]:
        """The variables pointing the CLI at a private configuration folder for this run (`private`),
        filled by `fill_home` and handed back through `write_back` when the run ends; none otherwise."""
        if not self.private:
            yield {}
            return
        user_env = dict(env)  # `env` itself is pointed at the folder while the run lasts
        with private_home(self.name) as folder:
            try:
                yield self.fill_home(folder, user_env)
            finally:
                self.write_back(folder, user_env)

    def fill_home(self, folder: Path, env: Mapping[str, str]) -> dict[str, str]:
        return {}

    def write_back(self, folder: Path, env: Mapping[str, str]) -> None:
        """`env`: the user's environment, before the run's variables. Copy refreshed sign-in files back to the user's folder (an OAuth refresh rotates tokens)."""

