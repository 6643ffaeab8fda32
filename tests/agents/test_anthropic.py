"""The Anthropic agent through the real SDK client against a loopback stand-in of the Messages API.

Each test drives `propose` as the runner would (observe, propose, settle the call, observe
again) and then reads what the SDK actually sent: the tool definition, the screenshots, the
tool results and their ids.
"""

from __future__ import annotations

import base64

import pytest

from engine.agents.agent import (
    Act,
    AgentError,
    Finish,
    GiveUp,
    Outcome,
    Price,
    Turn,
    Usage,
)
from engine.agents.anthropic import AnthropicAgent
from engine.envs.environment import Observation
from engine.tools.call import ToolCall
from tests.agents.anthropic_standin import (
    AnthropicStandIn,
    action,
    click,
    fail,
    navigate,
    refuse,
    say,
    screenshot,
    scroll,
    together,
    type_text,
)
from tests.agents.conftest import History, Screen, context

PRICE = Price(input_per_mtok=3.0, output_per_mtok=15.0)
CALL_COST = (1000 * 3.0 + 50 * 15.0) / 1e6


def agent_for(spec: dict | None = None, env_kind: str = "web") -> AnthropicAgent:
    spec = {"kind": "anthropic", "model": "claude-test", **(spec or {})}
    return AnthropicAgent.from_spec(spec, context(env_kind=env_kind, prices={"claude-test": PRICE}))


def images(blocks: list[dict]) -> list[bytes]:
    """The PNGs in a list of content blocks, tool results included, in order."""
    found = []
    for block in blocks:
        if block.get("type") == "image":
            assert block["source"]["media_type"] == "image/png"
            found.append(base64.b64decode(block["source"]["data"]))
        if block.get("type") == "tool_result":
            found.extend(images(block["content"]))
    return found


def texts(blocks: list[dict]) -> list[str]:
    return [block["text"] for block in blocks if block.get("type") == "text"]


def results(body: dict) -> list[dict]:
    """The tool results of the newest user turn of a request."""
    last = body["messages"][-1]
    assert last["role"] == "user"
    return [block for block in last["content"] if block["type"] == "tool_result"]


def tool_uses(message: dict) -> list[dict]:
    assert message["role"] == "assistant"
    return [block for block in message["content"] if block["type"] == "tool_use"]


async def test_three_steps_go_out_as_tool_calls_and_the_final_text_finishes(anthropic_api, screen):
    api = anthropic_api(["click 640 400", "type hello", "key ctrl+a", "Added the note."])
    agent = agent_for()
    history = History()
    first = screen.image

    one = await agent.propose(screen.observe(), history.turns)
    assert one == Act(ToolCall("browser.click", {"target": {"x": 640, "y": 400}}), Usage(1, 1000, 50, CALL_COST))
    second = screen.show((200, 30, 30))
    two = await agent.propose(screen.observe(), history.settle(one.call, output="clicked button 'New note'"))
    assert two == Act(ToolCall("browser.type", {"text": "hello"}), Usage(1, 1000, 50, CALL_COST))
    third = screen.show((30, 200, 30))
    three = await agent.propose(screen.observe(), history.settle(two.call, output="typed 'hello'"))
    assert three == Act(ToolCall("browser.press", {"key": "Control+A"}), Usage(1, 1000, 50, CALL_COST))
    fourth = screen.show((30, 30, 200))
    done = await agent.propose(screen.observe(), history.settle(three.call, output="pressed Control+A"))
    assert done == Finish("Added the note.", Usage(1, 1000, 50, CALL_COST))

    total = one.usage + two.usage + three.usage + done.usage
    assert (total.model_calls, total.input_tokens, total.output_tokens) == (4, 4000, 200)
    assert total.cost_usd == pytest.approx(4 * CALL_COST)

    bodies = api.bodies()
    assert len(bodies) == 4
    for request, body in zip(api.requests, bodies, strict=True):
        assert request.headers["anthropic-beta"] == "computer-use-2025-11-24"
        assert "sk-test-key" in (request.headers.get("x-api-key", ""), request.headers.get("authorization", "")[7:])
        assert body["model"] == "claude-test" and body["max_tokens"] == 4096
        computer, navigator = body["tools"]
        assert computer == {"type": "computer_20251124", "name": "computer",
                            "display_width_px": 1280, "display_height_px": 800}
        assert navigator["name"] == "navigate" and navigator["input_schema"]["required"] == ["url"]

    opening = bodies[0]["messages"]
    assert len(opening) == 1 and opening[0]["role"] == "user"
    assert "Goal: Add a note that says hello" in texts(opening[0]["content"])[0]
    assert images(opening[0]["content"]) == [first]

    told = [("done: browser.click: clicked button 'New note'", second), ("done: browser.type: typed 'hello'", third),
            ("done: browser.press: pressed Control+A", fourth)]
    for body, (text, screen_after) in zip(bodies[1:], told, strict=True):
        [use] = tool_uses(body["messages"][-2])
        [result] = results(body)
        assert result["tool_use_id"] == use["id"]
        assert "is_error" not in result
        assert texts(result["content"]) == [text]
        assert images(result["content"]) == [screen_after]
    assert [tool_uses(body["messages"][-2])[0]["input"] for body in bodies[1:]] == [
        {"action": "left_click", "coordinate": [640, 400]}, {"action": "type", "text": "hello"},
        {"action": "key", "text": "ctrl+a"}]


@pytest.mark.parametrize("outcome, word", [(Outcome.FAILED, "FAILED"), (Outcome.DENIED, "DENIED"),
                                           (Outcome.BLOCKED, "BLOCKED")])
async def test_an_unsuccessful_outcome_is_told_plainly_as_an_error(anthropic_api, screen, outcome, word):
    api = anthropic_api(["click 100 100", "I could not add the note."])
    agent = agent_for()
    history = History()
    act = await agent.propose(screen.observe(), history.turns)
    end = await agent.propose(screen.observe(), history.settle(act.call, outcome, "the operator said no"))
    assert end == Finish("I could not add the note.", Usage(1, 1000, 50, CALL_COST))
    [result] = results(api.bodies()[1])
    assert result["is_error"] is True
    [text] = texts(result["content"])
    assert text.startswith(f"{word}:") and "browser.click" in text and "the operator said no" in text


async def test_an_action_with_no_mapping_is_answered_as_an_error_and_the_loop_goes_on(anthropic_api, screen):
    api = anthropic_api([action("triple_click", coordinate=[50, 60]), "click 50 60", "done"])
    agent = agent_for()
    act = await agent.propose(screen.observe(), [])
    assert act.call == ToolCall("browser.click", {"target": {"x": 50, "y": 60}})
    assert act.usage == Usage(2, 2000, 100, 2 * CALL_COST)
    first, second = api.bodies()
    [use] = tool_uses(second["messages"][-2])
    [result] = results(second)
    assert result["tool_use_id"] == use["id"] and result["is_error"] is True
    assert "triple_click is not available" in texts(result["content"])[0]
    assert images(result["content"]) == [screen.image]


async def test_asking_again_and_again_for_what_cannot_be_done_gives_up(anthropic_api, screen):
    anthropic_api([action("triple_click", coordinate=[5, 5])] * 3 + ["click 1 1"])
    proposal = await agent_for().propose(screen.observe(), [])
    assert isinstance(proposal, GiveUp)
    assert proposal.reason.startswith("anthropic: the model kept asking for what cannot be done here")
    assert "\n" not in proposal.reason
    assert proposal.usage == Usage(3, 3000, 150, 3 * CALL_COST)


async def test_a_screenshot_is_answered_at_once_with_a_fresh_screen(anthropic_api, screen):
    api = anthropic_api([screenshot(), "click 10 10"])
    stale = screen.image
    fresh = screen.show((0, 120, 255))
    observation = Observation("web", "", {"display": {"width": 1280, "height": 800}}, image=stale, camera=screen.camera)
    act = await agent_for().propose(observation, [])
    assert act.call == ToolCall("browser.click", {"target": {"x": 10, "y": 10}})
    first, second = api.bodies()
    assert images(first["messages"][0]["content"]) == [stale]
    [result] = results(second)
    assert images(result["content"]) == [fresh] and "is_error" not in result


async def test_parallel_tool_uses_run_in_turn_and_are_answered_together(anthropic_api, screen):
    api = anthropic_api([together(say("Typing into the box."), click(300, 200), type_text("milk")), "Added."])
    agent = agent_for()
    history = History()
    one = await agent.propose(screen.observe(), history.turns)
    two = await agent.propose(screen.observe(), history.settle(one.call, output="clicked"))
    assert (one.call, two.call) == (ToolCall("browser.click", {"target": {"x": 300, "y": 200}}),
                                    ToolCall("browser.type", {"text": "milk"}))
    assert two.usage == Usage()
    after = screen.show((9, 9, 9))
    done = await agent.propose(screen.observe(), history.settle(two.call, output="typed"))
    assert isinstance(done, Finish)
    body = api.bodies()[1]
    uses, answers = tool_uses(body["messages"][-2]), results(body)
    assert [answer["tool_use_id"] for answer in answers] == [use["id"] for use in uses]
    assert [texts(answer["content"]) for answer in answers] == [["done: browser.click: clicked"],
                                                                ["done: browser.type: typed"]]
    assert images(answers[0]["content"]) == [] and images(answers[1]["content"]) == [after]
    assert texts(body["messages"][-2]["content"]) == ["Typing into the box."]


async def test_when_one_of_several_actions_fails_the_rest_are_not_run(anthropic_api, screen):
    api = anthropic_api([together(click(300, 200), type_text("milk")), "Stopping."])
    agent = agent_for()
    history = History()
    one = await agent.propose(screen.observe(), history.turns)
    done = await agent.propose(screen.observe(), history.settle(one.call, Outcome.BLOCKED, "policy"))
    assert isinstance(done, Finish)
    first, second = results(api.bodies()[1])
    assert first["is_error"] and texts(first["content"])[0].startswith("BLOCKED:")
    assert second["is_error"]
    assert texts(second["content"]) == ["not run: an earlier action of this turn did not succeed"]


async def test_navigate_scroll_and_key_sequences_map_to_browser_tools(anthropic_api, screen):
    anthropic_api([navigate("http://127.0.0.1:8000/notes"), scroll("down", 3), action("key", text="ctrl+l Return"),
                   "done"])
    agent = agent_for()
    history = History()
    calls = []
    proposal = await agent.propose(screen.observe(), history.turns)
    while isinstance(proposal, Act):
        calls.append(proposal.call)
        proposal = await agent.propose(screen.observe(), history.settle(proposal.call))
    assert calls == [ToolCall("browser.goto", {"url": "http://127.0.0.1:8000/notes"}),
                     ToolCall("browser.scroll", {"dx": 0, "dy": 300}),
                     ToolCall("browser.press", {"key": "Control+L"}), ToolCall("browser.press", {"key": "Enter"})]
    assert proposal == Finish("done", Usage(1, 1000, 50, CALL_COST))


async def test_a_click_outside_the_screen_is_refused_to_the_model(anthropic_api, screen):
    api = anthropic_api(["click 1280 10", "click 1279 799"])
    act = await agent_for().propose(screen.observe(), [])
    assert act.call == ToolCall("browser.click", {"target": {"x": 1279, "y": 799}})
    [result] = results(api.bodies()[1])
    assert result["is_error"] and "outside the 1280x800 screen" in texts(result["content"])[0]


async def test_on_a_desktop_the_actions_become_desktop_tools_and_there_is_no_navigate(anthropic_api, screen):
    api = anthropic_api(["click 20 30", "key ctrl+s", "type report", navigate("http://example.com"), "Saved."])
    agent = agent_for(env_kind="desktop")
    history = History()
    calls = []
    proposal = await agent.propose(screen.observe("desktop"), history.turns)
    while isinstance(proposal, Act):
        calls.append(proposal.call)
        proposal = await agent.propose(screen.observe("desktop"), history.settle(proposal.call))
    assert calls == [ToolCall("desktop.click", {"x": 20, "y": 30}), ToolCall("desktop.hotkey", {"keys": "ctrl+s"}),
                     ToolCall("desktop.type", {"text": "report"})]
    assert proposal == Finish("Saved.", Usage(2, 2000, 100, 2 * CALL_COST))
    assert [tool["name"] for tool in api.bodies()[0]["tools"]] == ["computer"]
    [result] = results(api.bodies()[4])
    assert result["is_error"] and "not available in a desktop environment" in texts(result["content"])[0]


async def test_only_the_newest_screenshots_stay_in_the_conversation(anthropic_api, screen):
    api = anthropic_api([f"click {n} {n}" for n in range(1, 6)] + ["done"])
    agent = agent_for({"keep_screenshots": 3})
    history = History()
    shown = [screen.image]
    proposal = await agent.propose(screen.observe(), history.turns)
    while isinstance(proposal, Act):
        shown.append(screen.show((len(shown) * 40, 0, 0)))
        proposal = await agent.propose(screen.observe(), history.settle(proposal.call))
    last = api.bodies()[-1]["messages"]
    sent = [image for message in last if message["role"] == "user" for image in images(message["content"])]
    assert sent == shown[-3:]
    assert "(an earlier screenshot, dropped to keep the conversation short)" in texts(last[0]["content"])


async def test_the_sdk_retries_a_transient_overload_by_itself(anthropic_api, screen):
    api = anthropic_api([fail(529, headers={"retry-after-ms": "1"}), "click 5 5"])
    act = await agent_for().propose(screen.observe(), [])
    assert act == Act(ToolCall("browser.click", {"target": {"x": 5, "y": 5}}), Usage(1, 1000, 50, CALL_COST))
    assert [request.headers["x-stainless-retry-count"] for request in api.requests] == ["0", "1"]


async def test_an_overloaded_api_gives_up_in_one_line_with_the_usage_so_far(anthropic_api, screen):
    anthropic_api([screenshot(), fail(529, "overloaded_error", "Overloaded")])
    proposal = await agent_for({"max_retries": 0}).propose(screen.observe(), [])
    assert proposal == GiveUp("anthropic: 529 overloaded_error: Overloaded", Usage(1, 1000, 50, CALL_COST))


async def test_a_server_error_gives_up_in_one_line(anthropic_api, screen):
    anthropic_api([fail(500, "api_error", "Internal server error\nwith a second line")])
    proposal = await agent_for({"max_retries": 0}).propose(screen.observe(), [])
    assert proposal == GiveUp("anthropic: 500 api_error: Internal server error with a second line", Usage())


async def test_an_unreachable_api_gives_up_in_one_line(anthropic_api, screen):
    api = anthropic_api([])
    url = api.url
    api.stop()
    proposal = await agent_for({"max_retries": 0}).propose(screen.observe(), [])
    assert isinstance(proposal, GiveUp)
    assert proposal.reason.startswith(f"anthropic: cannot reach {url}") and "\n" not in proposal.reason


async def test_a_refusal_gives_up(anthropic_api, screen):
    anthropic_api([refuse("I won't do that.")])
    proposal = await agent_for().propose(screen.observe(), [])
    assert proposal == GiveUp("anthropic: the model refused: I won't do that.", Usage(1, 1000, 50, CALL_COST))


async def test_the_conversation_has_a_cap_on_model_calls(anthropic_api, screen):
    anthropic_api(["click 1 1", "click 2 2", "click 3 3"])
    agent = agent_for({"max_model_calls": 2})
    history = History()
    one = await agent.propose(screen.observe(), history.turns)
    two = await agent.propose(screen.observe(), history.settle(one.call))
    three = await agent.propose(screen.observe(), history.settle(two.call))
    assert three == GiveUp("anthropic: the conversation reached its cap of 2 model calls", Usage())


async def test_a_fresh_agent_mid_task_starts_from_the_goal_and_an_account_of_the_steps(anthropic_api, screen):
    api = anthropic_api(["click 1 1"])
    earlier = [Turn(0, ToolCall("browser.goto", {"url": "http://127.0.0.1:8000/"}), "replay", Outcome.DONE, "opened"),
               Turn(1, ToolCall("browser.click", {"target": {"x": 9, "y": 9}}), "agent", Outcome.DENIED, "not now")]
    act = await agent_for().propose(screen.observe(), earlier)
    assert act.call == ToolCall("browser.click", {"target": {"x": 1, "y": 1}})
    [opening] = api.bodies()[0]["messages"]
    [text] = texts(opening["content"])
    assert "Goal: Add a note that says hello" in text and "Steps already taken in this task" in text
    assert '0. [replay] browser.goto {"url": "http://127.0.0.1:8000/"} -> done: browser.goto: opened' in text
    assert "1. [agent] browser.click" in text and "DENIED: the operator refused browser.click (not now)" in text


async def test_a_call_whose_outcome_never_arrives_is_told_as_unknown(anthropic_api, screen):
    api = anthropic_api(["click 1 1", "done"])
    agent = agent_for()
    await agent.propose(screen.observe(), [])
    done = await agent.propose(screen.observe(), [])
    assert isinstance(done, Finish)
    [result] = results(api.bodies()[1])
    assert result["is_error"] and texts(result["content"]) == ["the outcome of browser.click is unknown"]


async def test_the_older_tool_version_sends_its_own_type_and_beta(anthropic_api, screen):
    api = anthropic_api(["done"])
    await agent_for({"tool": "computer_20250124", "max_tokens": 1024}).propose(screen.observe(), [])
    assert api.bodies()[0]["tools"][0]["type"] == "computer_20250124"
    assert api.bodies()[0]["max_tokens"] == 1024
    assert api.requests[0].headers["anthropic-beta"] == "computer-use-2025-01-24"


async def test_the_default_model_is_used_when_the_spec_names_none(anthropic_api, screen):
    api = anthropic_api(["done"])
    agent = AnthropicAgent.from_spec({"kind": "anthropic"}, context())
    assert await agent.propose(screen.observe(), []) == Finish("done", Usage(1, 1000, 50, 0.0))
    assert api.bodies()[0]["model"] == "claude-sonnet-4-6"


async def test_a_screen_without_a_display_field_uses_the_screenshot_size(anthropic_api):
    api = anthropic_api(["done"])
    await agent_for().propose(Screen(display={}).observe(), [])
    computer = api.bodies()[0]["tools"][0]
    assert (computer["display_width_px"], computer["display_height_px"]) == (32, 20)


def test_a_missing_key_is_one_line(monkeypatch):
    monkeypatch.delenv("ANTHROPIC_API_KEY", raising=False)
    with pytest.raises(AgentError) as raised:
        AnthropicAgent.from_spec({"kind": "anthropic"}, context())
    assert str(raised.value) == "anthropic agent: ANTHROPIC_API_KEY is not set"


@pytest.mark.parametrize("spec, env_kind, message", [
    ({"modle": "x"}, "web", "anthropic agent: unknown option 'modle'"),
    ({"max_tokens": "many"}, "web", "anthropic agent: max_tokens must be int"),
    ({"tool": "computer_1999"}, "web", "anthropic agent: tool must be one of computer_20251124, computer_20250124"),
    ({"keep_screenshots": 0}, "web", "anthropic agent: keep_screenshots must be at least 1"),
    ({}, "workspace", "anthropic agent: acts on a web or desktop screen; this task's environment is workspace"),
])
def test_a_bad_spec_is_one_line(monkeypatch, spec, env_kind, message):
    monkeypatch.setenv("ANTHROPIC_API_KEY", "sk-test-key")
    with pytest.raises(AgentError) as raised:
        AnthropicAgent.from_spec({"kind": "anthropic", **spec}, context(env_kind=env_kind))
    assert str(raised.value).startswith(message) and "\n" not in str(raised.value)


def test_the_stand_in_answers_500_when_its_script_runs_out(anthropic_api):
    import httpx2

    api = anthropic_api([])
    answer = httpx2.post(f"{api.url}/v1/messages", json={"model": "m"})
    assert answer.status_code == 500 and answer.json()["error"]["type"] == "api_error"
    assert isinstance(api, AnthropicStandIn) and api.bodies() == [{"model": "m"}]
