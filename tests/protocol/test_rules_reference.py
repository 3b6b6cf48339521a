"""The rules reference (packplay_protocol.rules and its pages): every id the engines can
refuse with has exactly one entry per language, in the right page, in the same order in
every language; the pages are clean Markdown and ship as package data."""

from __future__ import annotations

import ast
import re
import tomllib
from collections import Counter
from fnmatch import fnmatch
from pathlib import Path

import pytest

from packplay.games.day_night.colors import pair_outcome
from packplay_protocol import rules
from packplay_protocol.cards import COLOR_ORDER
from packplay_protocol.ids import GAME_NAMES

ROOT = Path(__file__).resolve().parents[2]
ENGINES = ROOT / "server" / "packplay" / "games"
PACKAGE = ROOT / "protocol" / "packplay_protocol"
LANGUAGES = ("en", "es", "fr")

RULINGS = (
    *("C-1", "C-2", "C-3", "C-4", "C-5", "C-6"),
    *("DN-1", "DN-2", "DN-3", "DN-4", "DN-5", "DN-6", "DN-7"),
    *("MF-1", "MF-2", "MF-3", "MF-4", "MF-5", "MF-6", "MF-7", "MF-8"),
    *("WP-1", "WP-2", "WP-3", "WP-4", "WP-5", "WP-6"),
    *("BR-1", "BR-2", "BR-3", "BR-4", "BR-5", "BR-6", "BR-7", "BR-8", "BR-9"),
)
"""Every ruling id of the project's rules file (RULES.md), copied here."""

PAGE_OF_PREFIX = {
    "C": "common",
    "DN": "day_night",
    "MF": "mishra_factory",
    "WP": "wedding_planner",
    "BR": "base_race",
}
RULING_ID = re.compile(r"([A-Z]+)-\d+")


def engine_codes() -> set[str]:
    """Every rule id the engines can refuse with, read from their source: the string
    literal that opens a ``RuleError(...)`` call, and any literal passed as ``rule=``
    (a ruling handed to a helper that raises it)."""
    codes: set[str] = set()
    for path in sorted(ENGINES.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.Call):
                continue
            name = node.func.id if isinstance(node.func, ast.Name) else getattr(node.func, "attr", None)
            first = node.args[0] if node.args else None
            if name == "RuleError" and isinstance(first, ast.Constant) and isinstance(first.value, str):
                codes.add(first.value)
            for keyword in node.keywords:
                value = keyword.value
                if keyword.arg == "rule" and isinstance(value, ast.Constant) and isinstance(value.value, str):
                    codes.add(value.value)
        for function in functions(path):
            for _, default in rule_parameters(function):
                if isinstance(default, ast.Constant) and isinstance(default.value, str):
                    codes.add(default.value)
    return codes


def functions(path: Path) -> list[ast.FunctionDef | ast.AsyncFunctionDef]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return [n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef)]


def rule_parameters(function: ast.FunctionDef | ast.AsyncFunctionDef) -> list[tuple[str, ast.expr | None]]:
    """The function's parameters named ``rule``, each with its default (None if it has none)."""
    positional = [*function.args.posonlyargs, *function.args.args]
    defaults: list[ast.expr | None] = [None] * (len(positional) - len(function.args.defaults))
    pairs = list(zip(positional, [*defaults, *function.args.defaults], strict=True))
    pairs += list(zip(function.args.kwonlyargs, function.args.kw_defaults, strict=True))
    return [(arg.arg, default) for arg, default in pairs if arg.arg == "rule"]


def unscanned_raise_sites() -> list[str]:
    """``RuleError(...)`` calls whose rule the scan cannot read: the first argument must
    be a string literal, or a parameter named ``rule`` with a string literal default
    (and every caller passing a literal ``rule=``, which the scan reads)."""
    found: list[str] = []
    for path in sorted(ENGINES.rglob("*.py")):
        for function in functions(path):
            parameters = dict(rule_parameters(function))
            for node in ast.walk(function):
                if not (isinstance(node, ast.Call) and getattr(node.func, "id", None) == "RuleError"):
                    continue
                first = node.args[0] if node.args else None
                literal = isinstance(first, ast.Constant) and isinstance(first.value, str)
                passed = isinstance(first, ast.Name) and first.id == "rule" and "rule" in parameters
                default = parameters.get("rule")
                if not literal and not (passed and isinstance(default, ast.Constant)):
                    found.append(f"{path.relative_to(ROOT)}:{node.lineno}")
    return found


def page_of(rule_id: str) -> str:
    """The page that documents ``rule_id``: its game's for a ruling, else the common page."""
    ruling = RULING_ID.fullmatch(rule_id)
    return PAGE_OF_PREFIX[ruling.group(1)] if ruling else rules.COMMON


EXPECTED = sorted(engine_codes() | set(RULINGS))


def slug(heading: str) -> str:
    """The anchor a Markdown renderer (GitHub, GitLab, MkDocs) makes of a heading."""
    return re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")


def headings(markdown: str) -> list[tuple[int, str]]:
    return [(len(m.group(1)), m.group(2)) for m in re.finditer(r"^(#{1,6}) (.*)$", markdown, re.M)]


def test_the_scan_sees_the_engines_refusals() -> None:
    found = engine_codes()
    assert unscanned_raise_sites() == [], "a refusal whose rule the scan cannot read"
    assert {"options", "turn", "over", "players", "boosters", "belt", "layout", "card", "deal"} <= found
    assert {"DN-5", "MF-2", "WP-4", "WP-6", "BR-8"} <= found
    assert {rule_id for rule_id in found if RULING_ID.fullmatch(rule_id)} <= set(RULINGS)


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_id_has_exactly_one_entry_per_language(language: str) -> None:
    counts = Counter(i for page in rules.PAGES for i in rules.ids(rules.text(page, language)))
    assert {i: n for i, n in counts.items() if n != 1} == {}
    assert sorted(counts) == EXPECTED


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("page", rules.PAGES)
def test_each_page_documents_its_own_ids(page: str, language: str) -> None:
    assert sorted(rules.ids(rules.text(page, language))) == [i for i in EXPECTED if page_of(i) == page]


@pytest.mark.parametrize("page", rules.PAGES)
def test_languages_have_the_same_ids_in_the_same_order(page: str) -> None:
    english = rules.ids(rules.text(page, "en"))
    assert english
    for language in LANGUAGES:
        assert rules.ids(rules.text(page, language)) == english, language


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("page", rules.PAGES)
def test_each_id_heading_is_its_anchor(page: str, language: str) -> None:
    markdown = rules.text(page, language)
    id_headings = [text for level, text in headings(markdown) if level == 3]
    assert id_headings == list(rules.ids(markdown))
    anchors = [slug(text) for _, text in headings(markdown)]
    assert len(set(anchors)) == len(anchors)
    assert [slug(text) for text in id_headings] == [i.lower() for i in id_headings]


@pytest.mark.parametrize(
    "path", sorted(PACKAGE.glob("rules/*/*.md")), ids=lambda p: f"{p.parent.name}/{p.name}"
)
def test_pages_are_plain_utf8_markdown(path: Path) -> None:
    markdown = path.read_bytes().decode("utf-8")
    assert markdown.startswith("# ") and markdown.endswith("\n") and not markdown.endswith("\n\n")
    assert "``" not in markdown
    assert not re.search(r":(class|meth|func|mod|attr|data|exc):`", markdown)
    assert "\r" not in markdown and "\t" not in markdown
    levels = [level for level, _ in headings(markdown)]
    assert levels.count(1) == 1
    assert all(b <= a + 1 for a, b in zip(levels, levels[1:], strict=False))
    for number, line in enumerate(markdown.splitlines(), 1):
        assert line.count("`") % 2 == 0, f"line {number}: unbalanced code span"
        assert line == line.rstrip(), f"line {number}: trailing space"


def test_the_pages_ship_as_package_data() -> None:
    assert rules.languages() == LANGUAGES
    assert ("common", *GAME_NAMES) == rules.PAGES
    on_disk = sorted(p.relative_to(PACKAGE).as_posix() for p in (PACKAGE / "rules").rglob("*") if p.is_file())
    assert on_disk == sorted(f"rules/{lang}/{page}.md" for lang in LANGUAGES for page in rules.PAGES)
    patterns = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["package-data"]
    for name in on_disk:
        assert any(fnmatch(name, pattern) for pattern in patterns["packplay_protocol"]), name
        assert rules.text(Path(name).stem, Path(name).parent.name) == (PACKAGE / name).read_text("utf-8")


@pytest.mark.parametrize(("page", "language"), [("chess", "en"), ("day_night", "de"), ("../rules", "en")])
def test_an_unknown_page_or_language_is_refused(page: str, language: str) -> None:
    with pytest.raises(LookupError):
        rules.text(page, language)


def test_ids_are_the_first_word_of_level_three_headings_outside_code() -> None:
    markdown = "# T\n### DN-1\n#### DN-9\n## turn\n```\n### no\n```\n   ### turn and more\n###nope\n"
    assert rules.ids(markdown) == ("DN-1", "turn")


TABLE_WORDS = {
    "en": {"Day": "day", "Night": "night", "tie": "tie"},
    "es": {"Día": "day", "Noche": "night", "empate": "tie"},
    "fr": {"Jour": "day", "Nuit": "night", "égalité": "tie"},
}


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_day_night_table_is_the_engines(language: str) -> None:
    markdown = rules.text("day_night", language)
    rows = re.findall(r"^\| \*\*([WUBRG])\*\* \|(.*)\|$", markdown, re.M)
    table = {
        (day, night): TABLE_WORDS[language][cell.strip()]
        for day, cells in rows
        for night, cell in zip(COLOR_ORDER, cells.split("|"), strict=True)
    }
    assert table == {(day, night): pair_outcome(day, night) for day in COLOR_ORDER for night in COLOR_ORDER}
