"""Adversarial scenarios: runs that try to satisfy a PASS requirement falsely.

Each starts from the passing run and makes one edit (``adversarial_edits``) - a name
collision, a path alias, a symlink inside the run, agent-written evidence, a byte-identical
copy, another instance or run, a later or earlier clock, a review citing what does not exist
- and names the seed sentence its expected verdict follows from. The tests audit every one
(tests/audit/test_audit_adversarial.py); ``coldstart demo`` ships only the few in
``SHOWCASE``. Identity entries are in ``adversarial_paths``, provenance ones in ``adversarial_writers``.
"""

from __future__ import annotations

from pytest_coldstart.demo.scenarios.adversarial_arming import ARMING, LINKED, REWRITTEN_AFTER
from pytest_coldstart.demo.scenarios.adversarial_build_inputs import BUILD_INPUTS
from pytest_coldstart.demo.scenarios.adversarial_compiled import COMPILED
from pytest_coldstart.demo.scenarios.adversarial_computed import COMPUTED
from pytest_coldstart.demo.scenarios.adversarial_data_words import DATA_WORDS
from pytest_coldstart.demo.scenarios.adversarial_documents import DOCUMENTS
from pytest_coldstart.demo.scenarios.adversarial_edits import (
    CART,
    CLEAN,
    FIXTURE,
    ITEMS,
    ORDER,
    REVIEW,
    RUN_ID,
    SCOPE,
    UNVERIFIED,
    F,
    P,
    S,
    W,
    _cart_line,
    _enchanted,
    _logger_two_instances,
    _other_run,
    _read_at,
    _restore_phase_elsewhere,
    _review_cites,
    _scope,
    _task_with_answer,
    _visible,
)
from pytest_coldstart.demo.scenarios.adversarial_escaped import ESCAPED
from pytest_coldstart.demo.scenarios.adversarial_evidence import EVIDENCE
from pytest_coldstart.demo.scenarios.adversarial_evidence_more import EVIDENCE_MORE
from pytest_coldstart.demo.scenarios.adversarial_formats import FORMATS
from pytest_coldstart.demo.scenarios.adversarial_hostile_sizes import HOSTILE_SIZES
from pytest_coldstart.demo.scenarios.adversarial_includes import INCLUDES
from pytest_coldstart.demo.scenarios.adversarial_inventories import INVENTORIES
from pytest_coldstart.demo.scenarios.adversarial_judgement import JUDGEMENT
from pytest_coldstart.demo.scenarios.adversarial_kept_loaders import KEPT_LOADERS
from pytest_coldstart.demo.scenarios.adversarial_kept_more import KEPT_MORE
from pytest_coldstart.demo.scenarios.adversarial_kept_runs import KEPT_RUNS
from pytest_coldstart.demo.scenarios.adversarial_kept_runs_more import KEPT_RUNS_MORE
from pytest_coldstart.demo.scenarios.adversarial_kept_text import KEPT_TEXT
from pytest_coldstart.demo.scenarios.adversarial_lab import LAB_RECORD
from pytest_coldstart.demo.scenarios.adversarial_languages import LANGUAGES
from pytest_coldstart.demo.scenarios.adversarial_make_hostile import HOSTILE_MAKE
from pytest_coldstart.demo.scenarios.adversarial_opaque import OPAQUE
from pytest_coldstart.demo.scenarios.adversarial_other_actors import OTHER_ACTORS
from pytest_coldstart.demo.scenarios.adversarial_paths import IDENTITY
from pytest_coldstart.demo.scenarios.adversarial_paths_more import PATHS_MORE
from pytest_coldstart.demo.scenarios.adversarial_preloads import PRELOADS
from pytest_coldstart.demo.scenarios.adversarial_prerequisites import PREREQUISITES
from pytest_coldstart.demo.scenarios.adversarial_program_files import PROGRAM_FILES
from pytest_coldstart.demo.scenarios.adversarial_programs import PROGRAMS
from pytest_coldstart.demo.scenarios.adversarial_reads import READS
from pytest_coldstart.demo.scenarios.adversarial_recorded import RECORDED
from pytest_coldstart.demo.scenarios.adversarial_recursive import RECURSIVE
from pytest_coldstart.demo.scenarios.adversarial_redaction import REDACTION
from pytest_coldstart.demo.scenarios.adversarial_reviewers import REVIEWERS
from pytest_coldstart.demo.scenarios.adversarial_runtime import RUNTIME
from pytest_coldstart.demo.scenarios.adversarial_scripts import SCRIPTS
from pytest_coldstart.demo.scenarios.adversarial_searches import SEARCHES
from pytest_coldstart.demo.scenarios.adversarial_session import SESSION
from pytest_coldstart.demo.scenarios.adversarial_session_state import SESSION_STATE
from pytest_coldstart.demo.scenarios.adversarial_single_edits import SINGLE_EDITS
from pytest_coldstart.demo.scenarios.adversarial_spelled import SPELLED
from pytest_coldstart.demo.scenarios.adversarial_tool_configs import TOOL_CONFIGS
from pytest_coldstart.demo.scenarios.adversarial_tools import TOOLS
from pytest_coldstart.demo.scenarios.adversarial_trees import TREES
from pytest_coldstart.demo.scenarios.adversarial_vcs import VCS
from pytest_coldstart.demo.scenarios.adversarial_visible import VISIBLE
from pytest_coldstart.demo.scenarios.adversarial_workflows import WORKFLOWS
from pytest_coldstart.demo.scenarios.adversarial_writers import PROVENANCE
from pytest_coldstart.demo.scenarios.adversarial_written_data import WRITTEN_DATA
from pytest_coldstart.demo.scenarios.catalogue import Scenario, _flags
from pytest_coldstart.run import jsonio

_REST: list[Scenario] = [
    # -- 3. scope: every event that carries an instance or a dimension ----------------------
    S(
        "restore_event_other_instance",
        "restore_finished names another instance",
        _scope("testmod", "restore_finished", "instance", "lab-b"),
        F,
        "INFRA_ERROR",
        _flags(),
        "test-mod events mix instances",
        SCOPE,
    ),
    S(
        "input_attempt_other_instance",
        "the input attempt names another instance",
        _scope("testmod", "input_attempt", "instance", "lab-b"),
        F,
        "INFRA_ERROR",
        _flags(),
        "test-mod events mix instances",
        SCOPE,
    ),
    S(
        "instance_id_alias_other",
        "an event names another instance through the instance_id alias",
        _scope("testmod", "end", "instance_id", "lab-b"),
        F,
        "INFRA_ERROR",
        _flags(),
        "test-mod events mix instances",
        SCOPE,
    ),
    S(
        "logger_dim_alias_other",
        "a capture names another dimension through the dim alias",
        _scope("logger", "cart_observed", "dim", "minecraft:the_nether"),
        F,
        "INFRA_ERROR",
        _flags(to=F),
        "outside the test-mod experiment",
        SCOPE,
    ),
    S(
        "restore_phase_other_instance",
        "the trajectory's restore phase names another instance",
        _restore_phase_elsewhere,
        F,
        "INFRA_ERROR",
        _flags(),
        "names instance 'lab-b'",
        SCOPE,
    ),
    S(
        "fixture_report_other_instance",
        "the fixture report is for another instance",
        lambda b: b.passing().mutate_fixture(lambda f: f.update(instance="lab-b")),
        F,
        "INFRA_ERROR",
        _flags(),
        "the fixture report",
        SCOPE,
    ),
    S(
        "logger_mixes_instances",
        "the test mod carries no scope; the logger names two instances",
        _logger_two_instances,
        F,
        "INFRA_ERROR",
        _flags(),
        "agent logger events mix instances",
        SCOPE,
    ),
    # -- 4. fixture and restore states (R7 revised) -----------------------------------------
    S(
        "fixture_unverified",
        "the fixture report says unverified",
        lambda b: b.passing().mutate_fixture(lambda f: {"status": "unverified"}),
        W,
        None,
        _flags(ac=W),
        "the oracle stays pending",
        UNVERIFIED,
    ),
    S(
        "fixture_new_not_ready",
        "the fixture is new and not ready yet",
        lambda b: b.passing().mutate_fixture(lambda f: {"status": "new", "ready": False}),
        W,
        None,
        _flags(ac=W),
        "the oracle stays pending",
        UNVERIFIED,
    ),
    S(
        "restore_running",
        "the restore verification is still running",
        lambda b: b.passing().mutate_restore(lambda r: r.update(status="running")),
        W,
        None,
        _flags(ac=W),
        "the oracle stays pending",
        UNVERIFIED,
    ),
    S(
        "fixture_failed_verification",
        "the fixture report says its verification failed",
        lambda b: b.passing().mutate_fixture(lambda f: {"status": "failed", "ready": True}),
        F,
        "FIXTURE_INVALID",
        _flags(),
        "is not valid",
        FIXTURE,
    ),
    S(
        "fixture_result_alias_invalid",
        "the fixture report says invalid through the result alias",
        lambda b: b.passing().mutate_fixture(lambda f: {"result": "invalid", "ready": True}),
        F,
        "FIXTURE_INVALID",
        _flags(),
        "is not valid",
        FIXTURE,
    ),
    S(
        "restore_mismatch",
        "the restore verification reports a mismatch",
        lambda b: b.passing().mutate_restore(lambda r: r.update(status="mismatch")),
        F,
        "FIXTURE_INVALID",
        _flags(),
        "did not pass",
        FIXTURE,
    ),
    # -- 5. clean context: the answer must not be visible ------------------------------------
    S(
        "visible_answer_copy",
        "a visible file is a byte copy of the answer",
        _visible(lambda b: jsonio.dumps_document(b.documents["answer"])),
        F,
        "INFRA_ERROR",
        _flags(),
        "byte copy of the answer",
        CLEAN,
    ),
    S(
        "visible_oracle_carts",
        "a visible note lists a cart's uuid with its ordered items",
        _visible(lambda b: ("Expected:\n" + _cart_line(CART) + "\n").encode()),
        F,
        "INFRA_ERROR",
        _flags(),
        "carries the answer",
        CLEAN,
    ),
    S(
        "task_carries_answer",
        "the task text itself lists a cart with its items",
        _task_with_answer,
        F,
        "INFRA_ERROR",
        _flags(),
        "the task carries the answer",
        CLEAN,
    ),
    S(
        "visible_uuid_only",
        "a visible note names a cart uuid but none of its items (not the answer)",
        _visible(lambda b: f"cart {CART['uuid']} is the first\n".encode()),
        P,
        None,
        _flags(),
        "covers every oracle cart",
        CLEAN,
    ),
    # -- 6. items keep their components ------------------------------------------------------
    S(
        "answer_omits_enchantment",
        "the oracle's item carries enchantments the answer leaves out",
        _enchanted(None),
        F,
        "AGENT_FAIL",
        _flags(ac=F),
        "differ from the oracle",
        ITEMS,
    ),
    S(
        "answer_wrong_enchantment",
        "the answer gives the item other enchantments",
        _enchanted({"minecraft:sharpness": 1}),
        F,
        "AGENT_FAIL",
        _flags(ac=F),
        "differ from the oracle",
        ITEMS,
    ),
    S(
        "answer_same_enchantment",
        "the answer gives the item the oracle's enchantments",
        _enchanted({"minecraft:efficiency": 5}),
        P,
        None,
        _flags(),
        "covers every oracle cart",
        ITEMS,
    ),
    # -- 7. reviews that cite what does not exist; clocks; other runs -----------------------
    S(
        "review_cites_missing_call",
        "the causality review cites a call that does not exist",
        _review_cites("trajectory:c-nope"),
        W,
        None,
        _flags(mo=W),
        "awaiting explicit review",
        REVIEW,
    ),
    S(
        "review_cites_missing_seq",
        "the running review cites a logger seq that does not exist",
        _review_cites("logger:seq99", "logger_armed_before_activation.running"),
        W,
        None,
        _flags(la=W),
        "awaiting explicit review",
        REVIEW,
    ),
    S(
        "review_cites_absent_field",
        "the independence review cites a fixture field that is not there",
        _review_cites("fixture:no_such_field", "answer_correct.oracle_independence"),
        W,
        None,
        _flags(ac=W),
        "awaiting explicit review",
        REVIEW,
    ),
    S(
        "read_before_last_capture",
        "the logger read happens before the last cart was captured (earlier clock)",
        _read_at(12.5),
        F,
        "AGENT_FAIL",
        _flags(ar=F),
        "no agent call after the last capture",
        ORDER,
    ),
    S(
        "testmod_event_other_run",
        "one test-mod event belongs to another run",
        _other_run,
        F,
        "INFRA_ERROR",
        _flags(),
        "belongs to run 'some-other-run'",
        RUN_ID,
    ),
]

# fmt: off
_CATALOGUES = (
    IDENTITY, PATHS_MORE, VCS, PROVENANCE, SCRIPTS, KEPT_RUNS, KEPT_TEXT, KEPT_RUNS_MORE, KEPT_MORE, KEPT_LOADERS,
    PRELOADS, WRITTEN_DATA, COMPILED, BUILD_INPUTS, HOSTILE_MAKE, PROGRAM_FILES, HOSTILE_SIZES, TREES, SPELLED, TOOLS,
    PROGRAMS, SESSION, SESSION_STATE, READS, RECURSIVE, RUNTIME, COMPUTED, LANGUAGES, FORMATS, INCLUDES, TOOL_CONFIGS,
    WORKFLOWS, SEARCHES, VISIBLE, PREREQUISITES, INVENTORIES, EVIDENCE, EVIDENCE_MORE, REVIEWERS, ARMING, LINKED,
    REWRITTEN_AFTER, OPAQUE, REDACTION, ESCAPED, DOCUMENTS, JUDGEMENT, OTHER_ACTORS, SINGLE_EDITS, RECORDED,
    LAB_RECORD, DATA_WORDS, _REST,
)
# fmt: on
ADVERSARIAL: dict[str, Scenario] = {s.name: s for catalogue in _CATALOGUES for s in catalogue}
#: the few ``coldstart demo`` ships in runs/ (they help a reader; the rest are tests only)
SHOWCASE = ("name_collision_test_side_read", "oracle_byte_copy_of_answer", "fixture_unverified", "task_carries_answer")
