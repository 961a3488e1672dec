"""Make's text functions on hostile makefiles: never a crash, never a product of two sizes built."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from pytest_coldstart.audit.evidence import executed as executed_module
from pytest_coldstart.audit.evidence.executed import executed, recipes
from pytest_coldstart.audit.evidence.make_functions import LIMIT, evaluate


def test_an_index_str_isdigit_takes_but_int_refuses_is_no_index():
    assert evaluate("$(word ²,a b c)", {}) == "a b c"
    assert evaluate("$(word " + "1" * 5000 + ",a b c)", {}) == "a b c"
    assert evaluate("$(word 2,a b c)", {}) == "b"
    body = "cat $(" + "9" * 5000 + ") $(1)"
    assert evaluate("$(call F,x)", {"F": body}).endswith(") x")  # the long one left as written
    assert "oracle.json" in recipes("all:\n\tcat $(word ²,oracle.json x)\n")


def test_a_call_that_would_make_a_product_is_cut_while_it_is_built():
    n = 200_000
    for line, values in (
        ("cat $(subst a," + "b" * n + "," + "a" * n + ")", {}),
        ("cat $(patsubst %," + "b" * n + "," + "a " * n + ")", {}),
        ("$(call F," + "y" * n + ")", {"F": "$(1)" * n}),
        ("$(foreach w," + "y" * n + "," + "$(w)" * n + ")", {}),
        ("$(subst a,bb,aaa) " * n, {}),
    ):
        out = evaluate(line, values)
        assert LIMIT <= len(out) <= 4 * LIMIT + len(line)  # not n * n
    assert evaluate("$(subst X,o,Xracle.json)", {}) == "oracle.json"
    assert evaluate("$(patsubst %.txt,%.json,oracle.txt a.txt)", {}) == "oracle.json a.json"


def test_the_variable_pass_and_many_recipe_lines_stay_bounded():
    n = 60_000
    out = recipes("A = " + "x" * n + "\nall:\n\tcat " + "$(A)" * (n // 4) + "\n")
    assert len(out) <= LIMIT
    many = recipes("A = " + "x" * (n // 2) + "\nall:\n" + "".join(f"\t$(A){i}\n" for i in range(n // 12)))
    assert len(many) <= 20 * LIMIT + n  # not lines × value: past the budget the makefile whole
    assert "A = xxx" in many


def test_define_and_append_keep_their_values():
    text = "define A\n\nora\ncle.json\nendef\nB = x\nB += y\nC += z\nall:\n\tcat $(A) $(B)$(C)\n"
    assert recipes(text) == "cat ora\ncle.json x y z"


def test_a_kept_text_is_read_once_per_makefile_however_many_calls_run_it():
    text = "all:\n\tcat $(subst a,b,aaa) # " + "q" * 100 + "\n"
    executed_module._executed.cache_clear()
    first = executed("/w/Makefile", text)
    hits = executed_module._executed.cache_info().hits
    assert executed("/w/sub/makefile", text) == first
    assert executed_module._executed.cache_info().hits == hits + 1


@settings(max_examples=300, deadline=None)
@given(
    st.text(alphabet=st.sampled_from(list("$(){}, \t%ab1²9:\nwordsubstpatcalforeachif")), max_size=300),
    st.dictionaries(st.sampled_from(["F", "A", "1"]), st.text(max_size=40), max_size=3),
)
def test_make_functions_on_any_text_never_raise_and_stay_bounded(line, values):
    out = evaluate(line, values)
    assert len(out) <= 2 * LIMIT + len(line)
    assert len(recipes(line)) <= 20 * LIMIT + 2 * len(line)
