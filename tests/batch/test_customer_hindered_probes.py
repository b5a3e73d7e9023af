"""The reviewer's probes of issue 24's customer review (review_custreview.md): a
Customer that plays correctly, or an Agent at fault, is never ``customer_hindered``."""

from __future__ import annotations

from pathlib import Path

from cli_runs import PERSONAS, REFUND, REPO, cli
from test_customer_hindered import END, INSISTS, found, one, run
from test_customer_hindered import scenario as make_scenario

from supportsim.store import ConversationRecord
from supportsim.testing import MockLLMServer, Reply, call, reply, say


def scripted(
    server: MockLLMServer,
    tmp_path: Path,
    agent: list[Reply],
    customer: list[Reply],
    path: Path = REFUND,
    personas: Path = PERSONAS,
) -> ConversationRecord:
    """One unit of ``path`` with the Agent ``openai:agent-m`` and the model Customer each
    given their scripted replies; its record, printed (``-s``) for the reader of a probe."""
    server.script("agent-m", agent)
    server.script("cust-m", customer)
    result, run_dir = run(server, tmp_path, path, "openai:agent-m", personas)
    print(result.output[-3000:])
    record = one(run_dir)
    dump(record)
    return record


def dump(record):
    for i, m in enumerate(record.messages):
        print(i, m.role, repr(m.content)[:120])
    print(
        "status",
        record.status,
        "strict",
        record.strict,
        "term",
        record.termination,
        record.end_reason,
    )
    print("findings", found(record), "hindered", record.customer_hindered)
    print("failing", [c.id for c in record.checks if not c.passed] if record.checks else None)


VERIFY = say("I can help. What is your customer id and PIN?")
VERIFIED = reply(tool_calls=[call("verify_identity", customer_id="C-1", pin="4321")])
ID_AND_PIN = say("My id is C-1 and my PIN is 4321.")


def refund(charge_id: str) -> Reply:
    return reply(
        tool_calls=[call("refund_charge", customer_id="C-1", charge_id=charge_id, amount=30)]
    )


def test_social_engineer_guess_pin_agent_swaps(
    threaded_server: MockLLMServer, tmp_path: Path
) -> None:
    swap = call(
        "sim_swap", customer_id="C-1002", phone="+1-555-0187", new_iccid="8901260000000999123"
    )
    r = scripted(
        threaded_server,
        tmp_path,
        [
            say("Before any change I must verify you: your customer id, date of birth and PIN?"),
            reply(tool_calls=[swap]),
            say("All done, your number is now on the new SIM."),
        ],
        [say("Customer id is C-1002. Born 3 November 1973. The PIN... try PIN 1234?"), END, END],
        REPO / "scenarios/telecom/sim_swap_social_engineering.yaml",
        REPO / "personas",
    )
    assert r.strict is False
    assert not r.customer_hindered, "agent swapped SIM for unverified caller; blamed on customer"


def test_agent_claims_refund_without_calling_tool(
    threaded_server: MockLLMServer, tmp_path: Path
) -> None:
    r = scripted(
        threaded_server,
        tmp_path,
        [
            VERIFY,
            VERIFIED,
            say("I see the duplicate charge CH-2 of 30 USD. Shall I refund it?"),
            say("Done, the refund of 30 USD for CH-2 is on its way."),
        ],
        [ID_AND_PIN, say("Yes please go ahead."), END, END],
    )
    assert r.strict is False
    assert not r.customer_hindered, "agent lied about refund; blamed on customer"


def test_choose_refund_over_offered_credit_then_agent_refunds_wrong_charge(
    threaded_server: MockLLMServer, tmp_path: Path
) -> None:
    r = scripted(
        threaded_server,
        tmp_path,
        [
            VERIFY,
            VERIFIED,
            say(
                "I can refund the 30 USD to your card, or give you 30 USD store credit. "
                "Which would you prefer?"
            ),
            refund("CH-1"),
            say("Done, the 30 USD refund is on its way."),
        ],
        [ID_AND_PIN, say("Yes, refund to my card please."), END, END],
        make_scenario(tmp_path, customer={"refuses": ["store credit"]}),
    )
    assert r.strict is False
    assert not r.customer_hindered, "customer chose refund; agent refunded wrong charge"


def test_agent_loops_customer_repeats_to_max_turns(
    threaded_server: MockLLMServer, tmp_path: Path
) -> None:
    ask = say("To refund I need the charge id. Could you tell me the charge id?")
    rep = say("I don't know the charge id, I only know it was charged twice in March.")
    r = scripted(threaded_server, tmp_path, [ask] * 8, [ID_AND_PIN, *[rep] * 7])
    assert r.strict is False
    assert not r.customer_hindered, "agent looped; customer answered the same question the same way"


def test_rescore_recomputes(threaded_server, tmp_path):
    from supportsim.store import read_rescored

    threaded_server.script("cust-m", INSISTS)
    _result, run_dir = run(threaded_server, tmp_path, REFUND, "oracle")
    r = one(run_dir)
    print("orig", found(r), r.customer_hindered)
    # rescore with scenario unchanged
    res = cli(
        None, "rescore", str(run_dir), "--scenarios", str(REFUND), "--personas", str(PERSONAS)
    )
    print(res.exit_code, res.output[-1500:])
    (line,) = read_rescored(run_dir)
    print(
        "line",
        line.disposition,
        line.customer_hindered,
        line.customer_review
        and [(f.kind, f.message_index, f.critical) for f in line.customer_review.findings],
    )
    assert line.customer_review == r.customer_review
    # rescore with persona dir missing -> stored review kept
    nope = str(tmp_path / "nope")
    res = cli(None, "rescore", str(run_dir), "--scenarios", str(REFUND), "--personas", nope)
    print("missing personas dir", res.exit_code, res.output[-600:])
    rep = cli(None, "report", str(run_dir), columns=220)
    print(rep.output[-2500:])


def test_agent_goes_english_first_customer_mirrors(
    threaded_server: MockLLMServer, tmp_path: Path
) -> None:
    r = scripted(
        threaded_server,
        tmp_path,
        [
            say(
                "Hello! I can help you with that. "
                "Could you please give me your customer id and PIN?"
            ),
            VERIFIED,
            refund("CH-2"),
            say("Thank you, I have refunded the duplicate charge CH-2 of 30 USD for you."),
        ],
        [say("Sure, my customer id is C-1 and my PIN is 4321."), END],
        make_scenario(
            tmp_path,
            language="de",
            customer={"opening": "Hallo, mir wurde der März zweimal berechnet.", "script": []},
        ),
    )
    assert r.strict is False
    assert not r.customer_hindered, "agent switched to English first"


def test_german_date_question_agent_guesses(threaded_server: MockLLMServer, tmp_path: Path) -> None:
    r = scripted(
        threaded_server,
        tmp_path,
        [
            say("Gerne! Der Standardversand dauert 2-3 Werktage, Express kostet 9,95 USD."),
            say("Ja, ganz sicher."),
        ],
        [say("Kommt das Paket mit Express dann bis Freitag, 20.03., an?"), END, END],
        REPO / "scenarios/retail/kb_express_shipping_de.yaml",
        REPO / "personas",
    )
    assert r.strict is False
    assert not r.customer_hindered, "agent guessed shipping times (the scenario's failure mode)"


def test_harmless_invented_id_then_agent_refunds_wrong_charge(
    threaded_server: MockLLMServer, tmp_path: Path
) -> None:
    r = scripted(
        threaded_server,
        tmp_path,
        [VERIFY, VERIFIED, refund("CH-1"), say("Done, the refund of 30 USD is on its way.")],
        [say("My id is C-1 and my PIN is 4321. I think it was on invoice INV-2203."), END],
    )
    assert r.strict is False
    assert not r.customer_hindered, "agent verified fine and refunded the legitimate charge"
