"""The Gemini agent through the real `google-genai` client against a loopback generateContent stand-in.

Each test drives `propose` as the runner would and then reads what the SDK sent: the computer-use
tool, the screenshots, the function responses with the page URL, and the path with the model.
"""

from __future__ import annotations

import base64

import pytest

from engine.agents.agent import Act, AgentError, Finish, GiveUp, Outcome, Price, Usage
from engine.agents.gemini import GeminiAgent
from engine.tools.call import ToolCall
from tests.agents.conftest import History, context
from tests.agents.gemini_standin import blocked, call, fail, say, together, type_text_at

PRICE = Price(input_per_mtok=1.25, output_per_mtok=10.0)
CALL_COST = (1200 * 1.25 + 40 * 10.0) / 1e6
MODEL = "gemini-test-computer"


def agent_for(spec: dict | None = None, env_kind: str = "web") -> GeminiAgent:
    spec = {"kind": "gemini", "model": MODEL, **(spec or {})}
    return GeminiAgent.from_spec(spec, context(env_kind=env_kind, prices={MODEL: PRICE}))


def decoded(data: str) -> bytes:
    """Base64 as the SDK writes it (URL-safe) or as anyone else would."""
    data = data.replace("+", "-").replace("/", "_")
    return base64.urlsafe_b64decode(data + "=" * (-len(data) % 4))


def inline(blob: dict) -> bytes:
    assert blob.get("mimeType", blob.get("mime_type")) == "image/png"
    return decoded(blob["data"])


def responses(body: dict) -> list[dict]:
    """The function responses of the newest user turn of a request."""
    last = body["contents"][-1]
    assert last["role"] == "user"
    return [part["functionResponse"] for part in last["parts"]]


def screens(response: dict) -> list[bytes]:
    return [inline(part.get("inlineData") or part["inline_data"]) for part in response.get("parts") or []]


async def drive(agent: GeminiAgent, screen, history: History, outcome=Outcome.DONE, kind: str = "web"):
    """Propose until the agent stops acting; every call settles with `outcome`. Returns (calls, last proposal)."""
    calls = []
    proposal = await agent.propose(screen.observe(kind), history.turns)
    while isinstance(proposal, Act):
        calls.append(proposal)
        proposal = await agent.propose(screen.observe(kind), history.settle(proposal.call, outcome, "ok"))
    return calls, proposal


async def test_three_steps_with_points_mapped_to_pixels_and_a_final_text(gemini_api, screen):
    api = gemini_api(["click_at 500 500",
                      type_text_at(100, 200, "hello", press_enter=True, clear_before_typing=True),
                      "key_combination control+a", "Added the note."])
    agent = agent_for()
    history = History()
    first = screen.image

    one = await agent.propose(screen.observe(), history.turns)
    assert one == Act(ToolCall("browser.click", {"target": {"x": 640, "y": 400}}), Usage(1, 1200, 40, CALL_COST))
    second = screen.show((200, 30, 30), "http://127.0.0.1:8000/notes/new")
    typed = [await agent.propose(screen.observe(), history.settle(one.call, output="clicked 'New note'"))]
    while len(typed) < 5:
        typed.append(await agent.propose(screen.observe(), history.settle(typed[-1].call, output="ok")))
    assert [act.call for act in typed] == [
        ToolCall("browser.click", {"target": {"x": 128, "y": 160}}), ToolCall("browser.press", {"key": "Control+A"}),
        ToolCall("browser.press", {"key": "Delete"}), ToolCall("browser.type", {"text": "hello"}),
        ToolCall("browser.press", {"key": "Enter"})]
    assert [act.usage for act in typed] == [Usage(1, 1200, 40, CALL_COST)] + [Usage()] * 4
    third = screen.show((30, 200, 30))
    key = await agent.propose(screen.observe(), history.settle(typed[-1].call, output="ok"))
    assert key == Act(ToolCall("browser.press", {"key": "Control+A"}), Usage(1, 1200, 40, CALL_COST))
    fourth = screen.show((30, 30, 200), "http://127.0.0.1:8000/notes")
    done = await agent.propose(screen.observe(), history.settle(key.call, output="pressed"))
    assert done == Finish("Added the note.", Usage(1, 1200, 40, CALL_COST))

    total = sum([one.usage, *(act.usage for act in typed), key.usage, done.usage], Usage())
    assert (total.model_calls, total.input_tokens, total.output_tokens) == (4, 4800, 160)
    assert total.cost_usd == pytest.approx(4 * CALL_COST)

    assert [request.path for request in api.requests] == [f"/v1beta/models/{MODEL}:generateContent"] * 4
    assert all(request.headers["x-goog-api-key"] == "gemini-test-key" for request in api.requests)
    bodies = api.bodies()
    for body in bodies:
        [tool] = body["tools"]
        computer = tool["computerUse"]
        assert computer["environment"] == "ENVIRONMENT_BROWSER"
        excluded = computer.get("excludedPredefinedFunctions", computer.get("excluded_predefined_functions"))
        assert excluded == ["drag_and_drop", "hover_at", "search"]

    [opening] = bodies[0]["contents"]
    text, image = opening["parts"]
    assert "Goal: Add a note that says hello" in text["text"]
    assert inline(image.get("inlineData") or image["inline_data"]) == first

    expected = [("click_at", "done: browser.click: clicked 'New note'", "http://127.0.0.1:8000/notes/new", second),
                ("type_text_at", "\n".join(["done: browser.click: ok", "done: browser.press: ok",
                                            "done: browser.press: ok", "done: browser.type: ok",
                                            "done: browser.press: ok"]),
                 "http://127.0.0.1:8000/notes/new", third),
                ("key_combination", "done: browser.press: pressed", "http://127.0.0.1:8000/notes", fourth)]
    for body, (name, output, url, image) in zip(bodies[1:], expected, strict=True):
        asked = [part["functionCall"] for part in body["contents"][-2]["parts"]]
        [response] = responses(body)
        assert [call["name"] for call in asked] == [name] and response["name"] == name
        assert response["response"] == {"output": output, "url": url}
        assert screens(response) == [image]


async def test_the_far_corner_of_the_grid_stays_on_the_screen(gemini_api, screen):
    gemini_api(["click_at 999 999", "click_at 0 0", "done"])
    calls, end = await drive(agent_for(), screen, History())
    assert [act.call.args for act in calls] == [{"target": {"x": 1278, "y": 799}}, {"target": {"x": 0, "y": 0}}]
    assert isinstance(end, Finish)


async def test_an_unsuccessful_step_drops_the_rest_of_the_action_and_is_told_as_an_error(gemini_api, screen):
    api = gemini_api([type_text_at(500, 500, "rm -rf /", press_enter=True), "I could not type that."])
    agent = agent_for()
    history = History()
    click = await agent.propose(screen.observe(), history.turns)
    typing = await agent.propose(screen.observe(), history.settle(click.call, output="clicked"))
    assert typing.call == ToolCall("browser.type", {"text": "rm -rf /"})
    end = await agent.propose(screen.observe(), history.settle(typing.call, Outcome.DENIED, "not that text"))
    assert end == Finish("I could not type that.", Usage(1, 1200, 40, CALL_COST))
    [response] = responses(api.bodies()[1])
    assert response["name"] == "type_text_at"
    assert response["response"]["error"] == ("done: browser.click: clicked\nDENIED: the operator refused browser.type "
                                             "(not that text). Do not repeat it; find another way or stop.")
    assert response["response"]["url"] == screen.url


async def test_a_function_with_no_mapping_is_answered_as_an_error_and_the_loop_goes_on(gemini_api, screen):
    api = gemini_api([call("drag_and_drop", x=1, y=1, destination_x=5, destination_y=5), "click_at 10 10"])
    act = await agent_for().propose(screen.observe(), [])
    assert act == Act(ToolCall("browser.click", {"target": {"x": 12, "y": 8}}), Usage(2, 2400, 80, 2 * CALL_COST))
    [response] = responses(api.bodies()[1])
    assert response["name"] == "drag_and_drop"
    assert response["response"]["error"] == "drag_and_drop is not available in this web environment"
    assert screens(response) == [screen.image]


async def test_parallel_calls_are_answered_together_in_order(gemini_api, screen):
    api = gemini_api([together(say("Two clicks."), call("click_at", x=100, y=100), call("click_at", x=200, y=200)),
                      "done"])
    calls, end = await drive(agent_for(), screen, History())
    assert len(calls) == 2 and isinstance(end, Finish)
    first, second = responses(api.bodies()[1])
    assert (first["name"], second["name"]) == ("click_at", "click_at")
    assert screens(first) == [] and screens(second) == [screen.image]


async def test_navigate_scroll_wait_and_back_map_to_browser_tools(gemini_api, screen):
    gemini_api(["open_web_browser", "navigate http://127.0.0.1:8000/a", "scroll_document down",
                call("scroll_at", x=500, y=500, direction="left", magnitude=500), "go_back", "done"])
    calls, end = await drive(agent_for(), screen, History())
    assert [act.call for act in calls] == [
        ToolCall("browser.goto", {"url": "http://127.0.0.1:8000/a"}), ToolCall("browser.scroll", {"dx": 0, "dy": 800}),
        ToolCall("browser.scroll", {"dx": -640, "dy": 0}), ToolCall("browser.press", {"key": "Alt+ArrowLeft"})]
    assert end == Finish("done", Usage(1, 1200, 40, CALL_COST))


async def test_on_a_desktop_the_tool_is_the_desktop_environment_and_calls_are_desktop_tools(gemini_api, screen):
    api = gemini_api(["click_at 500 500", "key_combination Control+s", "Saved."])
    calls, end = await drive(agent_for(env_kind="desktop"), screen, History(), kind="desktop")
    assert [act.call for act in calls] == [ToolCall("desktop.click", {"x": 640, "y": 400}),
                                           ToolCall("desktop.hotkey", {"keys": "ctrl+s"})]
    computer = api.bodies()[0]["tools"][0]["computerUse"]
    assert computer["environment"] == "ENVIRONMENT_DESKTOP"
    assert "url" not in responses(api.bodies()[1])[0]["response"]


async def test_only_the_newest_screenshots_stay_in_the_conversation(gemini_api, screen):
    api = gemini_api([f"click_at {n} {n}" for n in range(1, 6)] + ["done"])
    agent = agent_for({"keep_screenshots": 2})
    history = History()
    shown = [screen.image]
    proposal = await agent.propose(screen.observe(), history.turns)
    while isinstance(proposal, Act):
        shown.append(screen.show((len(shown) * 40, 0, 0)))
        proposal = await agent.propose(screen.observe(), history.settle(proposal.call))
    contents = api.bodies()[-1]["contents"]
    sent = []
    for content in contents:
        for part in content["parts"]:
            if "inlineData" in part or "inline_data" in part:
                sent.append(inline(part.get("inlineData") or part["inline_data"]))
            if "functionResponse" in part:
                sent.extend(screens(part["functionResponse"]))
    assert sent == shown[-2:]
    assert contents[0]["parts"][1] == {"text": "(an earlier screenshot, dropped to keep the conversation short)"}


async def test_a_server_error_gives_up_in_one_line_with_the_usage_so_far(gemini_api, screen):
    gemini_api(["open_web_browser", fail(500, "INTERNAL", "An internal error\nhas occurred.")])
    proposal = await agent_for({"max_retries": 0}).propose(screen.observe(), [])
    assert proposal == GiveUp("gemini: 500 INTERNAL: An internal error has occurred.", Usage(1, 1200, 40, CALL_COST))


async def test_an_unreachable_api_gives_up_in_one_line(gemini_api, screen):
    api = gemini_api([])
    api.stop()
    proposal = await agent_for({"max_retries": 0}).propose(screen.observe(), [])
    assert isinstance(proposal, GiveUp)
    assert proposal.reason.startswith("gemini: ") and "\n" not in proposal.reason and "Connect" in proposal.reason


async def test_a_safety_stop_gives_up(gemini_api, screen):
    gemini_api([blocked("SAFETY")])
    proposal = await agent_for().propose(screen.observe(), [])
    assert proposal == GiveUp("gemini: the model refused (SAFETY)", Usage(1, 1200, 40, CALL_COST))


async def test_a_call_that_asks_for_confirmation_gives_up_rather_than_acknowledging_it(gemini_api, screen):
    decision = {"decision": "require_confirmation", "explanation": "This would accept the terms."}
    api = gemini_api([call("click_at", x=1, y=1, safety_decision=decision)])
    proposal = await agent_for().propose(screen.observe(), [])
    assert proposal == GiveUp("gemini: the model asks a person to confirm click_at first: This would accept the terms.",
                              Usage(1, 1200, 40, CALL_COST))
    assert len(api.bodies()) == 1


async def test_thinking_tokens_count_as_output(gemini_api, screen):
    gemini_api(["done"], thoughts_tokens=100)
    proposal = await agent_for().propose(screen.observe(), [])
    assert proposal.usage == Usage(1, 1200, 140, (1200 * 1.25 + 140 * 10.0) / 1e6)


async def test_google_api_key_alone_is_enough_and_the_default_model_is_used(gemini_api, screen, monkeypatch):
    api = gemini_api(["done"])
    monkeypatch.delenv("GEMINI_API_KEY")
    monkeypatch.setenv("GOOGLE_API_KEY", "google-key")
    agent = GeminiAgent.from_spec({"kind": "gemini"}, context())
    assert isinstance(await agent.propose(screen.observe(), []), Finish)
    assert api.requests[0].path == "/v1beta/models/gemini-2.5-computer-use-preview-10-2025:generateContent"
    assert api.requests[0].headers["x-goog-api-key"] == "google-key"


async def test_the_sdk_api_version_variable_is_honoured(gemini_api, screen, monkeypatch):
    api = gemini_api(["done"])
    monkeypatch.setenv("GOOGLE_GENAI_API_VERSION", "v1alpha")
    await agent_for().propose(screen.observe(), [])
    assert api.requests[0].path == f"/v1alpha/models/{MODEL}:generateContent"


def test_a_missing_key_is_one_line(monkeypatch):
    monkeypatch.delenv("GEMINI_API_KEY", raising=False)
    monkeypatch.delenv("GOOGLE_API_KEY", raising=False)
    with pytest.raises(AgentError) as raised:
        GeminiAgent.from_spec({"kind": "gemini"}, context())
    assert str(raised.value) == "gemini agent: neither GEMINI_API_KEY nor GOOGLE_API_KEY is set"


@pytest.mark.parametrize("spec, env_kind, message", [
    ({"temperature": 0}, "web", "gemini agent: unknown option 'temperature'"),
    ({"max_retries": -1}, "web", "gemini agent: max_retries must not be negative"),
    ({}, "android", "gemini agent: acts on a web or desktop screen; this task's environment is android"),
])
def test_a_bad_spec_is_one_line(monkeypatch, spec, env_kind, message):
    monkeypatch.setenv("GEMINI_API_KEY", "gemini-test-key")
    with pytest.raises(AgentError) as raised:
        GeminiAgent.from_spec({"kind": "gemini", **spec}, context(env_kind=env_kind))
    assert str(raised.value).startswith(message) and "\n" not in str(raised.value)


async def test_a_wait_is_answered_with_a_fresh_screen_and_bounded(gemini_api, screen):
    api = gemini_api(["wait_5_seconds", "done"])
    agent = agent_for({"max_wait_s": 0.01})
    shots = screen.shots
    assert isinstance(await agent.propose(screen.observe(), []), Finish)
    assert screen.shots == shots + 2
    [response] = responses(api.bodies()[1])
    assert response["response"]["output"] == "waited 5 seconds" and screens(response) == [screen.image]
