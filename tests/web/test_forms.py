"""The action forms as a table reads them: roll modes, titles, which form is open, folded
groups of rarely used fields and the labels of every choice, in English and French."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from html.parser import HTMLParser

import pytest
from fastapi.testclient import TestClient

from tablee.systems import GAMES
from tablee.systems.declare import fields_of
from tablee.systems.ybs.commands import Test
from tablee.table.sqlite_store import SqliteStore
from tablee.web.declared import declared_web
from tests.web.conftest import make_table

GAME_IDS = [game_id for game_id, _ in GAMES]
RAW = {"gm", "players", "both", "all", "none", "first", "second", "plain", "gate", "attack"}
RAW |= {"defend", "limit", "auto", "json", "toml", "fr", "en", "uchimi", "kega"}
"""Internal values once shown as they are in the forms' lists."""


@dataclass
class Form:
    """One action's form as drawn: its title, whether it is open, its inputs."""

    id: str = ""
    title: str = ""
    open: bool = False
    fields: list[str] = field(default_factory=list)
    groups: dict[str, list[str]] = field(default_factory=dict)
    selects: dict[str, list[tuple[str, str]]] = field(default_factory=dict)
    modes: list[tuple[str, bool]] = field(default_factory=list)
    mode_labels: list[str] = field(default_factory=list)
    legend: str = ""
    send_row: list[str] = field(default_factory=list)


class FormReader(HTMLParser):
    """Reads the ``details.action`` forms of a table page."""

    def __init__(self) -> None:
        super().__init__()
        self.forms: list[Form] = []
        self.text: list[str] | None = None
        self.group: str | None = None
        self.in_group_summary = False
        self.in_row = False
        self.select: str | None = None
        self.option: str | None = None
        self.open_groups = 0
        self.depth = 0

    @property
    def form(self) -> Form:
        return self.forms[-1]

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = dict(attrs)
        classes = (a.get("class") or "").split()
        if tag == "details":
            self.depth += 1
        if not self.depth:
            return  # outside the action forms (the game master's undo and house rules)
        if tag == "details" and "action" in classes:
            self.forms.append(Form(open="open" in a))
        elif tag == "details" and "more" in classes:
            self.group = ""
            self.open_groups += "open" in a
        elif tag == "summary":
            self.text = []
            self.in_group_summary = self.group == ""
        elif tag == "legend" or (tag == "label" and self.in_row):
            self.text = []
        elif tag == "form":
            self.form.id = (a.get("action") or "").rsplit("/", 1)[-1]
        elif tag == "div" and "send-row" in classes:
            self.in_row = True
        elif tag in ("input", "select", "textarea", "button"):
            self._input(tag, a)
        elif tag == "option" and self.select is not None:
            self.option, self.text = a.get("value") or "", []

    def _input(self, tag: str, a: dict[str, str | None]) -> None:
        name = a.get("name") or ""
        if self.in_row:
            self.form.send_row.append(tag if tag == "button" else name)
        if a.get("type") == "radio":
            self.form.modes.append((a.get("value") or "", "checked" in a))
        elif tag != "button" and a.get("type") != "hidden" and name not in ("faces",):
            if self.group:
                self.form.groups[self.group].append(name)
            else:
                self.form.fields.append(name)
        if tag == "select":
            self.select = name
            self.form.selects[name] = []

    def handle_endtag(self, tag: str) -> None:
        if tag == "details":
            self.depth -= 1
        if tag == "summary" and self.text is not None:
            text = "".join(self.text).strip()
            if self.in_group_summary:
                self.group = text
                self.form.groups[text] = []
                self.in_group_summary = False
            else:
                self.form.title = text
            self.text = None
        elif tag == "legend" and self.text is not None:
            self.form.legend, self.text = "".join(self.text).strip(), None
        elif tag == "label" and self.in_row and self.text is not None:
            self.form.mode_labels.append("".join(self.text).strip())
            self.text = None
        elif tag == "details" and self.group is not None:
            self.group = None
        elif tag == "div" and self.in_row:
            self.in_row = False
        elif tag == "option" and self.option is not None and self.select is not None:
            self.form.selects[self.select].append((self.option, "".join(self.text or ())))
            self.option, self.text = None, None
        elif tag == "select":
            self.select = None

    def handle_data(self, data: str) -> None:
        if self.text is not None:
            self.text.append(data)


def forms_of(client: TestClient, path: str, lang: str = "en") -> list[Form]:
    page = client.get(f"{path}?lang={lang}")
    assert page.status_code == 200, page.text
    reader = FormReader()
    reader.feed(page.text)
    assert reader.open_groups == 0  # every group starts folded
    return reader.forms


def by_id(forms: list[Form], action: str) -> Form:
    return next(f for f in forms if f.id == action)


# -- the roll mode beside Roll ------------------------------------------------------------------


def test_a_rolled_form_offers_its_roll_modes_beside_the_button(
    client: TestClient, store: SqliteStore
) -> None:
    links = make_table(store, "ybs")
    player = by_id(forms_of(client, links.players["Zoé"]), "test")
    assert player.modes == [("all", True), ("roller_and_gm", False)]  # blind: the GM's alone
    assert player.send_row == ["visibility", "visibility", "button"]
    assert player.legend == "Who sees the result"
    assert [label.split(" (")[0] for label in player.mode_labels] == ["Public", "Secret"]
    gm = by_id(forms_of(client, links.gm, "fr"), "test")
    assert gm.modes == [("all", True), ("roller_and_gm", False), ("gm", False)]
    assert [label.split(" (")[0] for label in gm.mode_labels] == ["Public", "Secret", "Aveugle"]
    assert gm.mode_labels[2] == "Aveugle (seul le meneur de jeu voit le résultat)"
    assert gm.legend == "Qui voit le résultat"
    page = client.get(links.gm).text
    assert 'select id="test-visibility"' not in page and '<select name="visibility"' not in page


def test_a_form_that_rolls_nothing_has_no_roll_mode(client: TestClient, store: SqliteStore) -> None:
    links = make_table(store, "ybs")
    damage = by_id(forms_of(client, links.gm), "damage")
    assert damage.modes == [] and damage.send_row == ["button"]


# -- titles -------------------------------------------------------------------------------------


@pytest.mark.parametrize("game_id", GAME_IDS)
@pytest.mark.parametrize("lang", ["en", "fr"])
def test_every_form_title_starts_with_a_capital(
    client: TestClient, store: SqliteStore, game_id: str, lang: str
) -> None:
    links = make_table(store, game_id)
    forms = forms_of(client, links.gm, lang)
    assert forms
    for form in forms:
        assert form.title[:1].isupper(), (form.id, form.title)


def test_a_title_keeps_its_words_past_the_first_letter(
    client: TestClient, store: SqliteStore
) -> None:
    links = make_table(store, "ybs")
    assert by_id(forms_of(client, links.gm), "test").title == (
        "A test: 1d6 + trait, 4 or more succeeds"
    )
    assert by_id(forms_of(client, links.gm, "fr"), "stubborn").title.startswith("S'entêter")


# -- which form is open -------------------------------------------------------------------------


@pytest.mark.parametrize("game_id", GAME_IDS)
@pytest.mark.parametrize("who", ["gm", "Zoé"])
def test_the_first_rolled_form_the_viewer_may_use_is_the_open_one(
    client: TestClient, store: SqliteStore, game_id: str, who: str
) -> None:
    links = make_table(store, game_id)
    forms = forms_of(client, links.gm if who == "gm" else links.players[who])
    rolled = [f for f in forms if f.modes]
    assert rolled, game_id
    assert [f.id for f in forms if f.open] == [rolled[0].id]


def test_the_shs_game_master_finds_the_test_first_and_open_and_the_creation_folded(
    client: TestClient, store: SqliteStore
) -> None:
    forms = forms_of(client, make_table(store, "shs").gm)
    rolled = [f.id for f in forms if f.modes]  # a form that rolls offers its roll modes
    # The forms that roll come first, in the game's order; the others after, folded.
    assert rolled == ["test", "opposed", "cooperation", "simultaneous"]
    assert [f.id for f in forms[: len(rolled)]] == rolled
    assert forms[0].open and not any(f.open for f in forms[1:])
    assert not by_id(forms, "protagoniste-create").open


def test_without_a_rolled_form_the_first_form_is_open(
    client: TestClient, store: SqliteStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    web = declared_web("pouyss")
    assert web is not None
    unrolled = tuple(a for a in web.actions() if not a.rolled)
    monkeypatch.setattr(web, "actions", lambda: unrolled)
    forms = forms_of(client, make_table(store, "pouyss").gm)
    assert [f.id for f in forms] == [a.id for a in unrolled]
    assert [f.open for f in forms] == [True] + [False] * (len(forms) - 1)


# -- folded groups ------------------------------------------------------------------------------


def test_the_fight_fields_of_a_ybs_test_wait_folded_after_the_others(
    client: TestClient, store: SqliteStore
) -> None:
    links = make_table(store, "ybs")
    titles = (("en", "In a fight", "Two traits"), ("fr", "Dans un combat", "Deux traits"))
    for lang, fight, two in titles:
        test = by_id(forms_of(client, links.players["Zoé"], lang), "test")
        assert test.fields == ["character", "trait", "force", "note"]
        assert test.groups == {
            two: ["second_trait", "combine"],
            fight: ["purpose", "target", "damage", "armed", "against"],
        }


def test_a_group_of_the_game_masters_fields_is_not_drawn_for_a_player(
    client: TestClient, store: SqliteStore
) -> None:
    links = make_table(store, "pouyss")
    gm = by_id(forms_of(client, links.gm), "roll")
    assert gm.groups == {"Imposed by the narrator": ["imposed_bonus", "imposed_malus"]}
    assert by_id(forms_of(client, links.players["Zoé"]), "roll").groups == {}


def test_the_api_names_a_fields_group_and_its_choices_labels(
    client: TestClient, store: SqliteStore
) -> None:
    links = make_table(store, "ybs")
    doc = client.get(f"{links.gm}/api", headers={"Accept-Language": "fr"}).json()
    test = next(c for c in doc["commands"] if c["name"] == "test")
    fields = {f["name"]: f for f in test["fields"]}
    assert fields["purpose"]["group"] == fields["armed"]["group"]
    assert "group" not in fields["trait"]
    assert fields["purpose"]["choices"] == ["plain", "gate", "attack", "defend"]
    assert set(fields["purpose"]["labels"]) == set(fields["purpose"]["choices"])
    assert fields["trait"]["labels"]["choushi"] == "Choushi"
    throw = next(c for c in doc["commands"] if c["name"] == "gang-throw")
    side = next(f for f in throw["fields"] if f["name"] == "side")
    assert side["choices"] == ["gm", "players", "both"]
    assert all(side["labels"][v] != v for v in side["choices"])


# -- what a choice list shows -------------------------------------------------------------------


def raw_labels(forms: list[Form], *, french: bool) -> list[str]:
    """The options of every list that show an internal value instead of words.

    Flagged: a label holding ``_`` or equal to a known internal value (`RAW`); on a French
    page, also a label equal to its lower-case value (an English word left untranslated:
    ``average``). Names (``Zoé``, ``Kenji``) and game terms (``Choushi``) pass.
    """
    found = []
    for form in forms:
        for name, options in form.selects.items():
            for value, label in options:
                bare = label == value and re.fullmatch(r"[a-z][a-z0-9]*", value) is not None
                bare = bare and french
                if "_" in label or label in RAW or bare:
                    found.append(f"{form.id}.{name}: {value!r} shown as {label!r}")
    return found


@pytest.mark.parametrize("game_id", GAME_IDS)
@pytest.mark.parametrize("lang", ["en", "fr"])
def test_no_choice_list_shows_a_raw_value(
    client: TestClient, store: SqliteStore, game_id: str, lang: str
) -> None:
    links = make_table(store, game_id)
    for path in (links.gm, *links.players.values()):
        assert raw_labels(forms_of(client, path, lang), french=lang == "fr") == [], path


def test_the_raw_value_check_finds_an_unlabelled_list() -> None:
    form = Form(id="gang-throw", selects={"side": [("", "-"), ("gm", "gm"), ("both", "les deux")]})
    form.selects["trait"] = [("sang_froid", "sang_froid"), ("choushi", "Choushi")]
    assert raw_labels([form], french=False) == [
        "gang-throw.side: 'gm' shown as 'gm'",
        "gang-throw.trait: 'sang_froid' shown as 'sang_froid'",
    ]
    names = Form(id="x", selects={"who": [("Zoé", "Zoé"), ("Kenji", "Kenji")]})
    assert raw_labels([names], french=True) == []
    words = Form(id="test", selects={"combine": [("average", "average")]})
    assert raw_labels([words], french=False) == []
    assert raw_labels([words], french=True) == ["test.combine: 'average' shown as 'average'"]


def test_every_label_names_a_value_of_its_word_field() -> None:
    spec = next(s for s in fields_of(Test) if s.name == "purpose")
    assert {value for value, _ in spec.param.option_labels} == set(spec.words)
    assert spec.param.label_of("gate") != "gate" and spec.param.label_of("else") == "else"


def test_the_faces_of_every_kind_of_die_follow_the_folded_groups(
    client: TestClient, store: SqliteStore
) -> None:
    links = make_table(store, "shs")
    page = client.get(links.gm).text
    form = page[page.index('action="' + links.gm + '/act/test"') :]
    form = form[: form.index("</form>")]
    group = form.index('<details class="more">')
    assert form.index('name="reason"') < group < form.index('name="faces"')
    assert form.index('name="faces"') < form.index('name="faces_dpm"')
    assert form.index('name="faces_dpm"') < form.index('type="submit"')
    assert by_id(forms_of(client, links.gm), "test").groups == {
        "Bonus, Malus and options": ["bonus", "malus", "option", "long_action"]
    }


# -- an example value in an empty input ---------------------------------------------------------


def test_a_fields_example_value_is_its_inputs_placeholder(
    client: TestClient, store: SqliteStore
) -> None:
    links = make_table(store, "shs")
    page = client.get(f"{links.gm}?lang=fr").text
    assert re.search(r'name="option" [^>]*placeholder="surpasser\|sacrifier">', page)
    assert re.search(r'name="carrure" [^>]*placeholder="5\.\.8">', page)
    assert 'placeholder="Test (Science, 3)"' in page  # the shell's quotes are left out
    # the command line's argument names (NAME:CARACTERISTIQUE[:option...], D) are not shown
    assert 'placeholder="NAME' not in page and 'placeholder="D"' not in page
    agents = client.get(f"{make_table(store, 'agents', name='Cobalt').gm}?lang=en").text
    assert re.search(r'name="muscles" type="number" [^>]*placeholder="7\|5\|3">', agents)
    lab = client.get("/lab/shs/film?lang=fr").text
    assert re.search(r'<input id="f-difficulties" [^>]*placeholder="1,2,2,3">', lab)
    gang = client.get("/lab/ybs/gang?lang=en").text
    assert re.search(r'<input id="f-players_faces" [^>]*placeholder="1,2,2,5,6">', gang)


def test_a_placeholder_is_escaped(client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    from tablee.lab.questions import QUESTIONS

    monkeypatch.setitem(QUESTIONS, "pouyss/typed", "tests.lab.fake_questions:Typed")
    page = client.get("/lab/pouyss/typed?lang=en").text
    assert 'placeholder="1 &amp; &lt;2&gt;, &#34;3&#34; x">' in page


@pytest.mark.parametrize(
    ("placeholder", "shown"),
    [
        ("1,2,2,3", "1,2,2,3"),
        ("7|5|3", "7|5|3"),
        ("surpasser|sacrifier", "surpasser|sacrifier"),
        ('"Test (Science, 3)"', "Test (Science, 3)"),
        ("NAME", ""),
        ("N", ""),
        ("±N", ""),
        ("PLAYER=CHOICE", ""),
        ("FACES|advised|none", ""),
        ("NAME:CARACTERISTIQUE[:option...]", ""),
        ("", ""),
    ],
)
def test_only_an_example_value_becomes_a_placeholder(placeholder: str, shown: str) -> None:
    from tablee.systems.declare import Param
    from tablee.web.declared import form_placeholder

    assert form_placeholder(Param("a field", placeholder=placeholder)) == shown
