"""The static stage on real folders (no browser)."""

from __future__ import annotations

import hashlib
from pathlib import Path

from crumb.protocol.game import FileEntry, Manifest
from crumb.qa.static import check_static, remote_urls_in_js
from crumb.settings import QASettings

PAGE = '<!doctype html><html><body><canvas id="game"></canvas><script src="game.js"></script></body></html>'


def game(tmp_path: Path, html: str = PAGE, **files: str) -> Path:
    (tmp_path / "index.html").write_text(html)
    (tmp_path / "game.js").write_text(files.pop("game_js", "// a game\n"))
    for name, text in files.items():
        (tmp_path / name.replace("__", "/")).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name.replace("__", "/")).write_text(text)
    return tmp_path


def codes(report) -> list[str]:
    return [f.code for f in report.findings]


def test_a_clean_folder_has_no_findings(tmp_path: Path) -> None:
    report = check_static(game(tmp_path, game_js='const ns = "http://www.w3.org/2000/svg"; // see https://example.com\n'))
    assert report.ok and report.findings == [] and report.files == 2


def test_missing_entry_is_named(tmp_path: Path) -> None:
    report = check_static(tmp_path, "index.html")
    assert not report.ok and codes(report) == ["missing_entry"] and "index.html" in report.findings[0].message


def test_remote_urls_in_html_css_and_js_are_findings(tmp_path: Path) -> None:
    html = PAGE.replace("</body>", '<link rel="stylesheet" href="s.css"><img src="//img.example.com/a.png"></body>')
    report = check_static(game(tmp_path, html, game_js='fetch("https://api.example.com/x")', **{"s.css": "body{background:url(https://e.com/b.png)}"}))
    messages = " | ".join(f.message for f in report.findings if f.code == "remote_url")
    assert not report.ok
    for url in ("//img.example.com/a.png", "https://api.example.com/x", "https://e.com/b.png"):
        assert url in messages


def test_js_comments_and_plain_double_slashes_are_not_urls() -> None:
    assert remote_urls_in_js('// https://example.com\nconst a = "x//y"; const b = "wss://h.io/s";') == ["wss://h.io/s"]


def test_missing_and_escaping_references(tmp_path: Path) -> None:
    inner = tmp_path / "g"
    inner.mkdir()
    (tmp_path / "secret.js").write_text("1")
    html = PAGE.replace("</body>", '<script src="nope.js"></script><script src="../secret.js"></script></body>')
    report = check_static(game(inner, html))
    assert sorted(codes(report)) == ["missing_asset", "outside_folder"]


def test_symlink_out_of_the_folder_is_a_finding(tmp_path: Path) -> None:
    inner = tmp_path / "g"
    inner.mkdir()
    (tmp_path / "passwd").write_text("root")
    game(inner)
    (inner / "data.txt").symlink_to(tmp_path / "passwd")
    assert "outside_folder" in codes(check_static(inner))


def test_budgets(tmp_path: Path) -> None:
    report = check_static(game(tmp_path, game_js="x" * 5000), settings=QASettings(max_bytes=1000, max_files=1))
    assert sorted(codes(report)) == ["too_large", "too_many_files"]


def test_unclosed_script_is_bad_html(tmp_path: Path) -> None:
    report = check_static(game(tmp_path, "<html><body><script>let a = 1;"))
    assert "bad_html" in codes(report)


def _manifest(root: Path) -> Manifest:
    files = [FileEntry(path=p.name, sha256=hashlib.sha256(p.read_bytes()).hexdigest(), bytes=p.stat().st_size)
             for p in sorted(root.iterdir())]
    return Manifest(dir=str(root), files=files)


def test_manifest_matches_then_a_changed_file_is_named(tmp_path: Path) -> None:
    root = game(tmp_path)
    manifest = _manifest(root)
    assert check_static(root, manifest=manifest).ok
    (root / "game.js").write_text("// edited after the build\n")
    (root / "extra.js").write_text("1")
    report = check_static(root, manifest=manifest)
    messages = [f.message for f in report.findings if f.code == "manifest_mismatch"]
    assert not report.ok and len(messages) == 2
    assert any("game.js changed after the build" in m for m in messages)
    assert any("extra.js is on disk but not in the build manifest" in m for m in messages)


def test_a_fifo_in_the_folder_is_skipped_with_a_finding(tmp_path: Path) -> None:
    """Reading a named pipe blocks for ever: the static stage must not open one."""
    import os

    (tmp_path / "index.html").write_text('<canvas></canvas><script src="level.js"></script>')
    os.mkfifo(tmp_path / "level.js")
    report = check_static(tmp_path)  # before: blocked here, in read_text, for ever
    assert [f.code for f in report.findings if f.code == "not_a_file"] == ["not_a_file"]
    assert "level.js is not a regular file" in report.errors[0] and not report.ok
