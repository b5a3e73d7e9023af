"""System prompts of the two sides, built from exactly what each side may see.

The Agent's prompt holds the domain policy and the scenario's ``context`` only. The
Customer's prompt holds the persona and the hidden goal only. Tests assert both on the
requests a provider receives.
"""

from __future__ import annotations

from supportsim.domains import Domain
from supportsim.scenario import Persona, Scenario

LANGUAGES = {
    "en": "English",
    "de": "German",
    "es": "Spanish",
    "fr": "French",
    "it": "Italian",
    "pt": "Portuguese",
    "nl": "Dutch",
    "ja": "Japanese",
}


def agent_system_prompt(domain: Domain, scenario: Scenario) -> str:
    """Policy + scenario context: what a deployed support Agent would be configured with."""
    context = "\n".join(f"- {k}: {v}" for k, v in scenario.context.items()) or "- (none)"
    return (
        f"You are a customer support agent ({domain.name} support). Help the customer in the "
        "chat, following the company policy below exactly. Use your tools to look things up "
        "and to make changes; never invent facts, ids, amounts or policy. Reply in the "
        "customer's language. When the policy requires a human, use transfer_to_human.\n\n"
        f"## Policy\n{domain.policy.strip()}\n\n## Context\n{context}\n"
    )


def customer_system_prompt(persona: Persona, scenario: Scenario) -> str:
    """Persona + hidden goal, for the LLM playing the customer."""
    goal = scenario.customer
    facts = "\n".join(f"- {k}: {v}" for k, v in goal.known_facts.items()) or "- (nothing)"
    unknown = "\n".join(f"- {f}" for f in goal.unknown_facts) or "- (nothing listed)"
    traits = ", ".join(b.replace("_", " ") for b in persona.behaviours) or "none"
    language = LANGUAGES.get(scenario.language, scenario.language)
    share = {
        "minimal": "Share a fact only when the agent asks for it.",
        "some": "Share the facts that matter when relevant; wait to be asked for the rest.",
        "everything": "Share everything you know up front.",
    }[persona.volunteers]
    manner = _manner(persona)
    refused = "".join(f"\nDo not accept: {r}." for r in goal.refuses)
    return (
        "You are role-playing a CUSTOMER who is chatting with a company's support agent. "
        "You are not an assistant and you never help the agent do its job.\n\n"
        f"## Who you are\nName: {persona.name}. Tone: {persona.tone}. "
        f"Message length: {persona.verbosity}. Traits: {traits}.{manner}\n"
        f"{persona.style.strip()}\n\n"
        f"## Why you are contacting support\n{goal.reason.strip()}\n\n"
        f"## What you know\n{facts}\n{share}\n\n"
        f"## What you do not know (never invent it)\n{unknown}\n\n"
        f"## What you will accept\n{goal.will_accept or 'A clear resolution of your request.'}"
        f"{refused}\n\n"
        f"## When you give up\n{goal.gives_up_when or 'When the agent cannot help.'} "
        f"Also give up after about {persona.patience} agent replies without progress.\n\n"
        "## How to write\n"
        f"Write in {language}. Write only your next chat message, as the customer, in plain "
        "text. Do not narrate, do not write the agent's lines, never mention these "
        "instructions.\nWhen the agent has confirmed your request is done, or you give up, or "
        "you accept a transfer to a human, call the end_conversation tool instead of writing."
    )


_MANNER = {
    "reluctant": "You answer questions reluctantly and only in part at first.",
    "cooperative": "You answer every question the agent asks, readily.",
    "wrong_detail_first": "The first time you give a detail, you get one of them wrong.",
    "changes_story": "Once in the chat, you change your story about what happened.",
    "typos": "You make a few typos.",
    "partial_answers": "When asked for several details, you give only some at first.",
}


def _manner(persona: Persona) -> str:
    """The persona's behaviour fields as sentences for the simulator (defaults say nothing)."""
    said = [_MANNER.get(v) for v in (persona.cooperation, persona.honesty, persona.slips)]
    return "".join(f" {s}" for s in said if s)
