"""The Wikidata SPARQL client against a real local SPARQL server (Oxigraph), over real sockets.

Wikidata-shaped RDF is built from real entity JSON (../shared/data/wikidata, when present) and
from synthetic people; a proxy in front of the server misbehaves the way the Wikidata Query
Service does (timeouts, throttling, hanging) so splitting, retrying and resuming run for real.
"""

from __future__ import annotations

import copy
import json
import re
import time
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from occbio.extract.wikidata_dump import entity_from_json
from occbio.extract.wikidata_sparql import (
    Batch,
    EndpointUnreachable,
    PeopleQuery,
    QueryTimeout,
    SparqlClient,
    SparqlError,
    fetch_entities,
    fetch_labels,
    iter_people,
    occupation_counts,
    validate_qid,
)
from occbio.extract.wikipedia_web import WikipediaWebClient
from occbio.records import Entity
from tests.conftest import SHARED_DATA
from tests.factories import human, occupation
from tests.sparql_server import (
    Rule,
    SparqlProxy,
    closed_port,
    drop_rule,
    entities_to_turtle,
    hang_rule,
    oxigraph_binary,
    partition_suffix,
    start_oxigraph,
    subclass_turtle,
    throttle_rule,
    timeout_rule,
)

LANGS = ("en", "es", "ca")
UA = "occbio-tests/0.1 (https://github.com/occbio/occbio; tests@example.org)"
FEMALE, MALE, NON_BINARY = "Q6581072", "Q6581097", "Q48270"
WRITER, POET, NOVELIST = "Q36180", "Q49757", "Q6625963"
POLITICIAN, DIPLOMAT, SCIENTIST = "Q82955", "Q193391", "Q901"
REAL_QIDS = ("Q42", "Q328212", "Q646148")
HAVE_REAL = all((SHARED_DATA / "wikidata" / f"{q}.json").is_file() for q in REAL_QIDS)

ALL3 = {"en": "A", "es": "A", "ca": "A"}


def _titles(name: str, *langs: str) -> dict[str, str]:
    return {lang: f"{name} ({lang})" for lang in langs}


def _with_rank(obj: dict[str, Any], prop: str, index: int, rank: str) -> dict[str, Any]:
    obj = copy.deepcopy(obj)
    obj["claims"][prop][index]["rank"] = rank
    return obj


def _synthetic_people() -> list[dict[str, Any]]:
    people = [
        human("Q1000001", "Ada Writer", FEMALE, [WRITER], _titles("Ada", "en", "es", "ca")),
        human("Q1000002", "Bo Writer", MALE, [WRITER], _titles("Bo", "en", "es")),
        human("Q1000003", "Cy Writer", NON_BINARY, [WRITER], _titles("Cy", "en")),
        human("Q1000004", "Di Writer", "Q999999", [WRITER], _titles("Di", "en", "ca")),
        human("Q1000005", "Eve Writer", FEMALE, [WRITER], _titles("Eve", "es", "ca")),
        human("Q7", "Seven Writer", MALE, [WRITER], _titles("Seven", "en")),
        human("Q1000010", "Poe Poet", FEMALE, [POET], _titles("Poe", "en", "es")),
        human("Q1000011", "Nora Novelist", FEMALE, [NOVELIST], _titles("Nora", "en", "es", "ca")),
        human("Q1000021", "Pol One", MALE, [POLITICIAN], _titles("Pol", "en", "es")),
        # no article in any of LANGS: never wanted, but still a human for fetch_entities
        human("Q1000033", "Gus German", MALE, [WRITER], _titles("Gus", "de")),
    ]
    # label only in es (picked after en), only "mul", only de (the any-language fallback)
    only_es = human("Q1000006", "x", FEMALE, [WRITER], _titles("Fay", "en", "es"))
    only_es["labels"] = {"es": {"language": "es", "value": "Fay Escritora"}}
    only_mul = human("Q1000007", "x", MALE, [WRITER], _titles("Gil", "en", "ca"))
    only_mul["labels"] = {"mul": {"language": "mul", "value": "Gil Everywhere"}}
    only_de = human("Q1000008", "x", MALE, [WRITER], _titles("Hal", "ca"))
    only_de["labels"] = {"de": {"language": "de", "value": "Hal Schriftsteller"}}
    # gender "unknown value" (somevalue), and no gender at all
    somevalue = human("Q1000009", "Ivy Unknown", FEMALE, [WRITER], _titles("Ivy", "es"))
    somevalue["claims"]["P21"][0]["mainsnak"] = {"snaktype": "somevalue", "property": "P21"}
    no_gender = human("Q1000034", "Jo Nogender", FEMALE, [WRITER], _titles("Jo", "en", "es"))
    del no_gender["claims"]["P21"]
    # preferred female next to normal male: the dump (and fetch_entities) see a conflict,
    # wdt: would see only the preferred value
    conflict = human("Q1000032", "Kim Conflict", FEMALE, [WRITER], _titles("Kim", "en", "es"))
    conflict["claims"]["P21"].append(copy.deepcopy(conflict["claims"]["P21"][0]))
    conflict["claims"]["P21"][1]["mainsnak"]["datavalue"]["value"] = {
        "entity-type": "item",
        "numeric-id": 6581097,
        "id": MALE,
    }
    conflict = _with_rank(conflict, "P21", 0, "preferred")
    # writer (normal) next to politician (preferred): wdt:P106 is only politician
    pol_writer = human("Q1000020", "Lu Both", FEMALE, [POLITICIAN, WRITER], ALL3)
    pol_writer = _with_rank(pol_writer, "P106", 0, "preferred")
    # a deprecated writer statement is no occupation at all
    deprecated = human("Q1000031", "Mo Formerly", MALE, [WRITER, POLITICIAN], ALL3)
    deprecated = _with_rank(deprecated, "P106", 0, "deprecated")
    # a writer that is not a human
    not_human = human("Q1000030", "Pen Name Collective", FEMALE, [WRITER], ALL3)
    not_human["claims"]["P31"][0]["mainsnak"]["datavalue"]["value"] = {
        "entity-type": "item",
        "numeric-id": 16017119,
        "id": "Q16017119",
    }
    people += [only_es, only_mul, only_de, somevalue, no_gender, conflict]
    return [*people, pol_writer, deprecated, not_human]


def _real_people() -> list[dict[str, Any]]:
    if not HAVE_REAL:
        return []
    objs = []
    for qid in REAL_QIDS:
        data = json.loads((SHARED_DATA / "wikidata" / f"{qid}.json").read_text(encoding="utf-8"))
        objs.append(data["entities"][qid] if "entities" in data else data)
    return objs


SYNTHETIC = _synthetic_people()
REAL = _real_people()
OCCUPATIONS = [
    occupation(WRITER, "writer"),
    occupation(POET, "poet"),
    occupation(NOVELIST, "novelist"),
    occupation(POLITICIAN, "politician"),
    occupation(SCIENTIST, "scientist"),
]
OCCUPATIONS[0]["labels"].update(
    {"es": {"language": "es", "value": "escritor"}, "ca": {"language": "ca", "value": "escriptor"}}
)
OCCUPATIONS[1]["labels"] = {"fr": {"language": "fr", "value": "poète"}}  # no en label

# Wanted people (P31 Q5, truthy P106, an article in one of LANGS), written out by hand.
SYNTH_WRITERS = {
    "Q1000001", "Q1000002", "Q1000003", "Q1000004", "Q1000005", "Q7",
    "Q1000006", "Q1000007", "Q1000008", "Q1000009", "Q1000034", "Q1000032",
}  # fmt: skip
WRITERS = SYNTH_WRITERS | ({"Q328212"} if REAL else set())
WRITERS_2LANGS = {"Q1000001", "Q1000002", "Q1000004", "Q1000005", "Q1000006", "Q1000007"}
WRITERS_2LANGS |= {"Q1000034", "Q1000032"} | ({"Q328212"} if REAL else set())
CA_WRITERS = {"Q1000001", "Q1000004", "Q1000005", "Q1000007", "Q1000008"}
CA_WRITERS |= {"Q328212"} if REAL else set()
WRITERS_WITH_SUBCLASSES = WRITERS | {"Q1000010", "Q1000011"} | ({"Q42"} if REAL else set())
POLITICIANS = {"Q1000021", "Q1000020", "Q1000031"} | ({"Q646148"} if REAL else set())


def _sort(qids: set[str]) -> list[str]:
    return sorted(qids, key=lambda q: int(q[1:]))


def _normalised(entity: Entity) -> Entity:
    """SPARQL has no statement order: compare genders and occupations as sorted lists."""
    return Entity(
        qid=entity.qid,
        label=entity.label,
        genders=sorted(entity.genders),
        gender=entity.gender,
        occupations=sorted(entity.occupations, key=lambda o: o.qid),
        titles=entity.titles,
    )


# --------------------------------------------------------------------------------------------
# Fixtures: one Oxigraph server per module, a proxy in front of it
# --------------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def endpoint(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    if oxigraph_binary() is None:
        pytest.skip("the oxigraph CLI is not installed (pip install -e '.[dev]')")
    turtle = entities_to_turtle([*SYNTHETIC, *REAL, *OCCUPATIONS])
    turtle += subclass_turtle([(POET, WRITER), (NOVELIST, WRITER)])
    with start_oxigraph(turtle, tmp_path_factory.mktemp("oxigraph")) as url:
        yield url


@pytest.fixture(scope="module")
def _proxy(endpoint: str) -> Iterator[SparqlProxy]:
    with SparqlProxy(endpoint) as proxy:
        yield proxy


@pytest.fixture
def proxy(_proxy: SparqlProxy) -> SparqlProxy:
    _proxy.reset()
    return _proxy


@pytest.fixture
def client(endpoint: str) -> SparqlClient:
    return SparqlClient(endpoint, user_agent=UA, timeout=10)


def _client(url: str, **kwargs: Any) -> tuple[SparqlClient, list[float]]:
    """A client whose pauses are recorded instead of slept."""
    waits: list[float] = []
    kwargs.setdefault("timeout", 10)
    return SparqlClient(url, user_agent=UA, sleep=waits.append, **kwargs), waits


def _walk(client: SparqlClient, query: PeopleQuery, occs: list[str], **kw: Any) -> list[Any]:
    return list(iter_people(client, query, occs, **kw))


def _people(batches: list[tuple[Batch, list[str] | None]]) -> list[str]:
    return [q for _, result in batches if result for q in result]


# --------------------------------------------------------------------------------------------
# Validation: nothing unchecked reaches a query
# --------------------------------------------------------------------------------------------


def test_validate_qid() -> None:
    assert validate_qid("Q36180") == "Q36180"
    assert validate_qid("Q7") == "Q7"
    for bad in ("Q0", "Q012", "Q12a", "P31", "q42", "Q", "", " Q42", "Q1 } DROP ALL", "wd:Q5"):
        with pytest.raises(ValueError, match="is not a Wikidata item id"):
            validate_qid(bad)
    with pytest.raises(ValueError, match=r"^occupation 'P106' is not"):
        validate_qid("P106", what="occupation")


def test_public_functions_refuse_bad_input_before_sending(proxy: SparqlProxy) -> None:
    client = SparqlClient(proxy.url, user_agent=UA)
    query = PeopleQuery(LANGS, 1)
    evil = "Q1 } DROP ALL"
    with pytest.raises(ValueError):
        occupation_counts(client, query, occupations=[WRITER, evil])
    with pytest.raises(ValueError):
        iter_people(client, query, [WRITER, evil])  # at the call, not at the first next()
    with pytest.raises(ValueError):
        fetch_entities(client, ["Q42", evil], LANGS)
    with pytest.raises(ValueError):
        fetch_entities(client, ["Q42"], ["en", 'en") } #'])
    with pytest.raises(ValueError):
        fetch_entities(client, ["Q42"], LANGS, label_langs=["EN"])
    with pytest.raises(ValueError):
        fetch_labels(client, [WRITER, "P31"], ["en"])
    with pytest.raises(TypeError):
        fetch_labels(client, "Q42", ["en"])
    with pytest.raises(ValueError):
        iter_people(client, query, [WRITER], page_size=0)
    assert proxy.requests == []
    assert client.stats["queries"] == 0


def test_people_query_checks_langs_and_min_langs() -> None:
    assert PeopleQuery(["en", "es"], 2).langs == ("en", "es")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="min_langs=3"):
        PeopleQuery(("en", "es"), 3)
    with pytest.raises(ValueError, match="min_langs=0"):
        PeopleQuery(("en",), 0)
    with pytest.raises(ValueError, match="no language"):
        PeopleQuery((), 1)
    for bad in ("EN", "en wiki", "en>", "1en"):
        with pytest.raises(ValueError, match="not a language code"):
            PeopleQuery((bad,), 1)


@pytest.mark.parametrize(
    ("bad", "message"),
    [
        ({"user_agent": " "}, "User-Agent"),
        ({"retries": -1}, "retries"),
        ({"timeout": 0}, "timeout"),
        ({"deadline": 0}, "deadline must be positive"),
        ({"max_bytes": 0}, "max_bytes must be at least 1"),
    ],
)
def test_both_live_clients_refuse_impolite_settings(bad: dict, message: str) -> None:
    """The SPARQL and web clients share one check, so they refuse the same settings."""
    settings = {"user_agent": UA, "retries": 1, "timeout": 5.0, **bad}
    with pytest.raises(ValueError, match=message):
        SparqlClient("http://127.0.0.1:1/query", **settings)
    with pytest.raises(ValueError, match=message):
        WikipediaWebClient(**settings)


def test_batch_key_and_order() -> None:
    assert Batch(WRITER).key == "Q36180//0"
    assert Batch(WRITER, "7", 20000).key == "Q36180/7/20000"
    assert sorted([Batch(WRITER, "1"), Batch(WRITER, "", 2), Batch(WRITER)]) == [
        Batch(WRITER),
        Batch(WRITER, "", 2),
        Batch(WRITER, "1"),
    ]


# --------------------------------------------------------------------------------------------
# Details: the same Entity as the dump reader builds
# --------------------------------------------------------------------------------------------


def test_fetch_entities_equals_entity_from_json(client: SparqlClient) -> None:
    objs = [*SYNTHETIC, *REAL]
    expected_stats: Counter[str] = Counter()
    expected = []
    for obj in objs:
        entity = entity_from_json(obj, LANGS, min_langs=1, stats=expected_stats)
        if entity is not None:
            expected.append(entity)
    qids = [e.qid for e in expected]
    stats: Counter[str] = Counter()
    got = fetch_entities(client, qids, LANGS, stats=stats)
    assert [e.qid for e in got] == qids  # the order asked for
    assert [_normalised(e) for e in got] == [_normalised(e) for e in expected]
    for key in ("gender_missing", "gender_somevalue", "gender_unmapped", "gender_conflict"):
        assert stats[key] == expected_stats[key], key
    assert stats["occupation_missing"] == expected_stats["occupation_missing"]
    assert stats["humans"] == len(expected)
    by_qid = {e.qid: e for e in got}
    assert by_qid["Q1000032"].gender == "unknown"  # preferred female + normal male: conflict
    assert by_qid["Q1000032"].genders == [FEMALE, MALE]
    assert [o.qid for o in by_qid["Q1000020"].occupations] == [WRITER, POLITICIAN]
    assert [o.qid for o in by_qid["Q1000031"].occupations] == [POLITICIAN]  # deprecated: gone
    assert by_qid["Q1000006"].label == "Fay Escritora"
    assert by_qid["Q1000007"].label == "Gil Everywhere"
    assert by_qid["Q1000008"].label == "Hal Schriftsteller"
    assert by_qid["Q1000008"].titles == {"ca": "Hal (ca)"}
    assert by_qid["Q1000009"].genders == [] and stats["gender_somevalue"] == 1


@pytest.mark.skipif(not HAVE_REAL, reason="../shared/data/wikidata is absent")
def test_fetch_entities_real_people(client: SparqlClient, shared_data: Path) -> None:
    for langs, label_langs in ((LANGS, ("en",)), (("de", "fr", "ja"), ("fr",))):
        for obj in REAL:
            expected = entity_from_json(obj, langs, min_langs=1, label_langs=label_langs)
            assert expected is not None
            (got,) = fetch_entities(client, [obj["id"]], langs, label_langs=label_langs)
            assert _normalised(got) == _normalised(expected)
    (adams,) = fetch_entities(client, ["Q42"], ("fr", "de"), label_langs=("fr",))
    assert adams.label == "Douglas Adams" and adams.gender == "male"
    assert set(adams.titles) == {"fr", "de"}
    assert NOVELIST in {o.qid for o in adams.occupations}


def test_fetch_entities_absent_people(client: SparqlClient) -> None:
    stats: Counter[str] = Counter()
    got = fetch_entities(client, ["Q999999999", "Q1000001", WRITER, "Q1000030"], LANGS, stats=stats)
    assert [e.qid for e in got] == ["Q1000001"]  # unknown, an occupation, a non-human: absent
    assert stats["people_vanished"] == 3
    (gus,) = fetch_entities(client, ["Q1000033"], LANGS)
    assert gus.titles == {} and gus.label == "Gus German"
    assert fetch_entities(client, [], LANGS) == []
    assert client.stats["queries"] == 2


def test_fetch_entities_halves_a_block_that_times_out(proxy: SparqlProxy) -> None:
    qids = _sort(SYNTH_WRITERS)
    direct = fetch_entities(SparqlClient(proxy.upstream, user_agent=UA), qids, LANGS)

    def big_block(query: str) -> bool:
        values = re.search(r"VALUES \?person \{([^}]*)\}", query)
        return values is not None and values.group(1).count("wd:Q") > 3

    proxy.rules = [timeout_rule(big_block)]
    client = SparqlClient(proxy.url, user_agent=UA)
    assert fetch_entities(client, qids, LANGS) == direct
    assert client.stats["timeouts"] >= 3
    proxy.rules = [timeout_rule()]
    with pytest.raises(QueryTimeout, match="Q1000001 alone times out"):
        fetch_entities(client, ["Q1000001", "Q1000002"], LANGS)


def test_fetch_labels(client: SparqlClient) -> None:
    labels = fetch_labels(client, [WRITER, POET, POLITICIAN, "Q999999999"], ["ca", "en"])
    assert labels == {WRITER: "escriptor", POET: "poète", POLITICIAN: "politician"}
    assert fetch_labels(client, [WRITER, POLITICIAN], ["es"], block=1) == {
        WRITER: "escritor",
        POLITICIAN: "politician",
    }
    assert client.stats["queries"] == 3
    assert fetch_labels(client, [], ["en"]) == {}


# --------------------------------------------------------------------------------------------
# Which people: counts, subclasses, min_langs, paging
# --------------------------------------------------------------------------------------------


def test_occupation_counts(client: SparqlClient) -> None:
    one = PeopleQuery(LANGS, 1)
    counts = occupation_counts(client, one, occupations=[WRITER, POLITICIAN, SCIENTIST])
    assert counts == {WRITER: len(WRITERS), POLITICIAN: len(POLITICIANS), SCIENTIST: 0}
    two = occupation_counts(client, PeopleQuery(LANGS, 2), occupations=[WRITER])
    assert two == {WRITER: len(WRITERS_2LANGS)}
    sub = occupation_counts(client, PeopleQuery(LANGS, 1, True), occupations=[WRITER, POET])
    assert sub == {WRITER: len(WRITERS_WITH_SUBCLASSES), POET: 1}
    everything = occupation_counts(client, one)
    assert everything[WRITER] == len(WRITERS) and everything[POET] == 1
    assert SCIENTIST not in everything
    assert list(everything.values()) == sorted(everything.values(), reverse=True)
    assert occupation_counts(client, one, occupations=list(everything)) == everything
    assert occupation_counts(client, one, occupations=[]) == {}


def test_iter_people_subclasses_and_min_langs(client: SparqlClient) -> None:
    for query, expected in (
        (PeopleQuery(LANGS, 1), WRITERS),
        (PeopleQuery(LANGS, 2), WRITERS_2LANGS),
        (PeopleQuery(LANGS, 1, subclasses=True), WRITERS_WITH_SUBCLASSES),
        (PeopleQuery(("ca",), 1), CA_WRITERS),
    ):
        batches = _walk(client, query, [WRITER])
        assert batches == [(Batch(WRITER), _sort(expected))]


def test_iter_people_pages(client: SparqlClient) -> None:
    query = PeopleQuery(LANGS, 1)
    batches = _walk(client, query, [WRITER, POLITICIAN, SCIENTIST], page_size=2)
    people = _people(batches)
    writers = [q for b, r in batches if b.occupation == WRITER for q in r or ()]
    assert sorted(writers) == sorted(WRITERS) and len(writers) == len(WRITERS)  # each once
    assert set(people) == WRITERS | POLITICIANS
    n_writer_pages = len(WRITERS) // 2 + 1  # the last page has fewer than 2 rows (maybe 0)
    assert [b.key for b, _ in batches if b.occupation == WRITER] == [
        f"{WRITER}//{2 * i}" for i in range(n_writer_pages)
    ]
    assert all(len(r or ()) == 2 for b, r in batches[: n_writer_pages - 1])
    assert batches[-1] == (Batch(SCIENTIST), [])  # an occupation without people: one empty batch
    assert all(r == sorted(r, key=lambda q: int(q[1:])) for _, r in batches if r)
    assert _walk(client, query, []) == []


# --------------------------------------------------------------------------------------------
# Timeouts: split, resume
# --------------------------------------------------------------------------------------------


def _unpartitioned(query: str) -> bool:
    return partition_suffix(query) == ""


def test_split_after_a_timeout_gives_the_same_people(proxy: SparqlProxy) -> None:
    query = PeopleQuery(LANGS, 1)
    direct = SparqlClient(proxy.upstream, user_agent=UA)
    unsplit = _walk(direct, query, [WRITER, POLITICIAN])
    proxy.rules = [timeout_rule(lambda q: len(partition_suffix(q)) < 2)]
    client = SparqlClient(proxy.url, user_agent=UA)
    split = _walk(client, query, [WRITER, POLITICIAN], max_depth=2)
    assert split[0] == (Batch(WRITER), None)
    assert split[1] == (Batch(WRITER, "0"), None)
    assert split[2][0] == Batch(WRITER, "00")
    assert sum(1 for _, r in split if r is None) == 2 * 11  # "", then "0".."9", per occupation
    for occ, _ in unsplit:
        ours = sorted(q for b, r in split if b.occupation == occ.occupation for q in r or ())
        assert ours == sorted(next(r for b, r in unsplit if b == occ) or ())
    assert "Q7" in _people(split)  # partition "07" holds Q7 too
    assert client.stats["timeouts"] == 22
    # counts split the same way and add up to the same numbers
    occs = [WRITER, POLITICIAN, SCIENTIST]
    assert occupation_counts(client, query, occupations=occs, max_depth=2) == (
        occupation_counts(direct, query, occupations=occs)
    )
    assert occupation_counts(client, query, max_depth=2) == occupation_counts(direct, query)


def test_too_deep_a_split_says_what_to_do(proxy: SparqlProxy) -> None:
    proxy.rules = [timeout_rule()]
    client = SparqlClient(proxy.url, user_agent=UA)
    walk = iter_people(client, PeopleQuery(LANGS, 1), [WRITER], max_depth=1)
    assert next(walk) == (Batch(WRITER), None)
    with pytest.raises(QueryTimeout, match=r"fewer languages.*--occupations"):
        next(walk)
    assert len(proxy.requests) == 2
    with pytest.raises(QueryTimeout, match="--occupations"):
        occupation_counts(client, PeopleQuery(LANGS, 1), max_depth=0)


def test_resume_asks_nothing_for_finished_batches(proxy: SparqlProxy) -> None:
    query = PeopleQuery(LANGS, 1)
    client = SparqlClient(proxy.url, user_agent=UA)
    first = _walk(client, query, [WRITER, POLITICIAN], page_size=2)
    assert len(proxy.requests) == len(first)
    # interrupted after 3 batches: the rest is asked, the 3 are not
    done = {b.key: r for b, r in first[:3]}
    proxy.reset()
    again = _walk(client, query, [WRITER, POLITICIAN], page_size=2, done=done)
    assert again == first
    assert len(proxy.requests) == len(first) - 3
    # everything done: nothing asked
    proxy.reset()
    before = client.stats["queries"]
    full = {b.key: r for b, r in first}
    assert _walk(client, query, [WRITER, POLITICIAN], page_size=2, done=full) == first
    assert proxy.requests == []
    assert client.stats["queries"] == before


def test_resume_goes_straight_to_the_parts_of_a_split_batch(proxy: SparqlProxy) -> None:
    query = PeopleQuery(LANGS, 1)
    proxy.rules = [timeout_rule(_unpartitioned)]
    client = SparqlClient(proxy.url, user_agent=UA)
    first = _walk(client, query, [WRITER])
    assert first[0] == (Batch(WRITER), None) and len(first) == 11
    proxy.reset()  # no more timeouts: the resumed run must still not ask the split batch
    again = _walk(client, query, [WRITER], done={Batch(WRITER).key: None})
    assert again == first
    assert len(proxy.requests) == 10
    assert all(partition_suffix(q) for q in proxy.queries())


# --------------------------------------------------------------------------------------------
# The client: politeness and failures
# --------------------------------------------------------------------------------------------

PEOPLE_OF_WRITER = (
    "PREFIX wd: <http://www.wikidata.org/entity/>\n"
    "PREFIX wdt: <http://www.wikidata.org/prop/direct/>\n"
    "SELECT ?person WHERE { ?person wdt:P106 wd:Q36180 } ORDER BY ?person"
)


def test_select_sends_the_user_agent_by_post(proxy: SparqlProxy) -> None:
    client = SparqlClient(proxy.url, user_agent=UA)
    rows = client.select(PEOPLE_OF_WRITER)
    assert {r["person"].rsplit("/", 1)[1] for r in rows} >= SYNTH_WRITERS
    (request,) = proxy.requests
    assert request.method == "POST"
    assert request.headers["User-Agent"] == UA
    assert "sparql-results+json" in request.headers["Accept"]
    assert request.query == PEOPLE_OF_WRITER
    assert client.stats == Counter({"queries": 1, "rows": len(rows)})


def test_select_empty_and_blank_nodes(client: SparqlClient) -> None:
    assert client.select(PEOPLE_OF_WRITER.replace("Q36180", "Q901")) == []
    rows = client.select(
        "PREFIX wd: <http://www.wikidata.org/entity/>\n"
        "PREFIX wdt: <http://www.wikidata.org/prop/direct/>\n"
        "SELECT ?g WHERE { wd:Q1000009 wdt:P21 ?g }"
    )
    assert len(rows) == 1 and rows[0]["g"].startswith("_:")


def test_429_retry_after_is_honoured(proxy: SparqlProxy) -> None:
    proxy.rules = [throttle_rule(2, "3")]
    client, waits = _client(proxy.url)
    assert client.select(PEOPLE_OF_WRITER)
    assert waits == [3.0, 3.0]
    assert client.stats["retries"] == 2 and len(proxy.requests) == 3
    assert all(r.headers["User-Agent"] == UA for r in proxy.requests)


def test_503_without_retry_after_backs_off_then_gives_up(proxy: SparqlProxy) -> None:
    proxy.rules = [throttle_rule(None, None, status=503)]
    client, waits = _client(proxy.url, retries=3, backoff=0.5)
    with pytest.raises(SparqlError, match=r"127\.0\.0\.1.*HTTP 503.*after 3 retries"):
        client.select(PEOPLE_OF_WRITER)
    assert waits == [0.5, 1.0, 2.0] and len(proxy.requests) == 4


def test_retry_after_longer_than_max_wait_is_not_cut_short(proxy: SparqlProxy) -> None:
    proxy.rules = [throttle_rule(None, "600")]
    client, waits = _client(proxy.url, max_wait=120)
    with pytest.raises(SparqlError, match="asks to wait 600 s"):
        client.select(PEOPLE_OF_WRITER)
    assert waits == [] and len(proxy.requests) == 1


def test_other_500_and_dropped_connections_are_retried(proxy: SparqlProxy) -> None:
    oops = timeout_rule(times=1)
    oops.body = "java.lang.NullPointerException"
    proxy.rules = [oops, drop_rule(1)]
    client, waits = _client(proxy.url)
    assert client.select(PEOPLE_OF_WRITER)
    assert waits == [2.0, 4.0] and len(proxy.requests) == 3
    assert client.stats["timeouts"] == 0


def test_server_timeouts_are_not_retried(proxy: SparqlProxy) -> None:
    proxy.rules = [timeout_rule()]
    client, waits = _client(proxy.url)
    with pytest.raises(QueryTimeout, match="TimeoutException"):
        client.select(PEOPLE_OF_WRITER)
    proxy.rules = [throttle_rule(None, None, status=504)]
    with pytest.raises(QueryTimeout, match="HTTP 504"):
        client.select(PEOPLE_OF_WRITER)
    assert waits == [] and len(proxy.requests) == 2
    assert client.stats["timeouts"] == 2


def test_a_hanging_server_is_a_timeout(proxy: SparqlProxy) -> None:
    proxy.rules = [hang_rule(10)]
    client, waits = _client(proxy.url, timeout=0.5)
    started = time.monotonic()
    with pytest.raises(QueryTimeout, match=r"client's 0\.5 s"):
        client.select(PEOPLE_OF_WRITER)
    assert time.monotonic() - started < 3
    assert waits == [] and len(proxy.requests) == 1


def test_connection_refused_is_unreachable_quickly() -> None:
    url = f"http://127.0.0.1:{closed_port()}/query"
    client, waits = _client(url)
    started = time.monotonic()
    with pytest.raises(EndpointUnreachable, match="cannot be reached") as info:
        client.select(PEOPLE_OF_WRITER)
    assert url in str(info.value) and "refused" in str(info.value).lower()
    assert waits == [1.0, 1.0]  # two quick retries, a second apart
    assert time.monotonic() - started < 2
    assert client.stats["queries"] == 3


def test_bad_query_reports_the_server_text(client: SparqlClient) -> None:
    with pytest.raises(SparqlError, match=r"HTTP 400\): error at 1:15") as info:
        client.select("SELECT WHERE {")
    assert not isinstance(info.value, QueryTimeout)
    assert "b'" not in str(info.value)  # the text, not a bytes repr
    assert client.stats["queries"] == 1


def test_a_count_that_is_not_a_number_is_left_out(proxy: SparqlProxy) -> None:
    """An endpoint of another shape answering "many" for a count: that occupation is left
    out (logged), the others are counted, no traceback."""
    import json

    entity = "http://www.wikidata.org/entity/"
    integer = "http://www.w3.org/2001/XMLSchema#integer"
    body = json.dumps(
        {
            "head": {"vars": ["occ", "n"]},
            "results": {
                "bindings": [
                    {"occ": {"type": "uri", "value": entity + WRITER},
                     "n": {"type": "literal", "value": "many"}},
                    {"occ": {"type": "uri", "value": entity + POLITICIAN},
                     "n": {"type": "literal", "datatype": integer, "value": "3"}},
                ]
            },
        }
    )  # fmt: skip
    headers = {"Content-Type": "application/sparql-results+json"}
    proxy.rules.append(Rule(lambda q: "COUNT(" in q, 200, body, headers))
    client, _ = _client(proxy.url)
    counts = occupation_counts(client, PeopleQuery(LANGS, 1), occupations=[WRITER, POLITICIAN])
    assert counts == {WRITER: 0, POLITICIAN: 3}
