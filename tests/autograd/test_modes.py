"""역전파 활성/비활성 모드: with 블록, 데코레이터, 예외, 스레드 격리."""

import asyncio
import threading

import numpy as np
import pytest
from korean_messages import korean_instruction

import tinygrad_ko as tg
from tinygrad_ko import Config, Variable


def test_no_grad_builds_no_graph():
    x = Variable(np.array(2.0))
    with tg.no_grad():
        y = tg.square(x) * 3.0
        assert Config.enable_backprop is False
    assert y.creator is None
    assert Config.enable_backprop is True
    assert tg.square(x).creator is not None


def test_using_config_restores_after_an_exception():
    with pytest.raises(RuntimeError), tg.using_config("enable_backprop", False):
        raise RuntimeError("블록 안의 오류")
    assert Config.enable_backprop is True


def test_nested_blocks_restore_the_previous_value():
    with tg.no_grad():
        with tg.using_config("enable_backprop", True):
            assert Config.enable_backprop is True
        assert Config.enable_backprop is False
    assert Config.enable_backprop is True


def test_no_grad_as_decorator():
    @tg.no_grad()
    def predict(x):
        assert Config.enable_backprop is False
        return x * 2.0

    y = predict(Variable(np.array(1.0)))
    assert y.creator is None
    assert predict(Variable(np.array(1.0))).creator is None  # 두 번째 호출도 같은 모드.
    assert Config.enable_backprop is True


def test_unknown_setting_name_is_refused_in_korean():
    with pytest.raises(AttributeError, match="알 수 없는 설정 이름입니다: 'enable_backprob'"):
        with tg.using_config("enable_backprob", False):
            pass


def test_no_grad_in_one_thread_does_not_stop_another():
    inside = threading.Event()
    recorded = threading.Event()
    results = {}

    def inference():
        with tg.no_grad():
            inside.set()
            results["inference"] = tg.square(Variable(np.array(3.0))).creator
            recorded.wait(timeout=10)

    def training():
        inside.wait(timeout=10)
        y = tg.square(Variable(np.array(3.0)))
        results["training"] = y.creator
        results["training_mode"] = Config.enable_backprop
        recorded.set()

    threads = [threading.Thread(target=inference), threading.Thread(target=training)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=20)
    assert results["inference"] is None
    assert results["training"] is not None
    assert results["training_mode"] is True


def test_leaving_no_grad_from_another_thread_is_refused_and_changes_nothing():
    block = tg.no_grad()
    block.__enter__()
    errors = []

    def leave_elsewhere():
        try:
            block.__exit__(None, None, None)
        except RuntimeError as error:
            errors.append(error)

    worker = threading.Thread(target=leave_elsewhere)
    worker.start()
    worker.join()
    assert Config.enable_backprop is False  # 이 스레드는 아직 블록 안입니다
    block.__exit__(None, None, None)  # 고치기 전: 이 스레드가 비활성 모드에 갇힘
    assert Config.enable_backprop is True
    assert len(errors) == 1  # 고치기 전: 영어 ValueError(ContextVar token)
    assert "들어간 스레드" in korean_instruction(errors[0])


@pytest.mark.parametrize("value", ["False", 0, None, np.bool_(False)])
def test_config_refuses_values_that_are_not_bool(value):
    with pytest.raises(TypeError, match="True나 False") as info:
        Config.enable_backprop = value  # 고치기 전: "False"가 참으로 저장됨
    korean_instruction(info.value)
    assert Config.enable_backprop is True
    with pytest.raises(TypeError, match="True나 False"):
        tg.using_config("enable_backprop", value)


def test_asyncio_tasks_have_their_own_mode():
    log = []

    async def inference(entered, finish):
        with tg.no_grad():
            entered.set()
            await finish.wait()  # 블록 안에서 기다리는 동안 다른 작업이 돕니다
            log.append(("inference", tg.square(Variable(np.array(2.0))).creator))

    async def training(entered, finish):
        await entered.wait()
        log.append(("training", type(tg.square(Variable(np.array(2.0))).creator).__name__))
        finish.set()

    async def main():
        entered, finish = asyncio.Event(), asyncio.Event()
        await asyncio.gather(inference(entered, finish), training(entered, finish))
        with tg.no_grad():  # no_grad 안에서 만든 작업은 그 모드를 물려받습니다
            inherited = await asyncio.create_task(asyncio.sleep(0, Config.enable_backprop))
        return inherited

    # 다른 테스트(브라우저)가 이 스레드에 이벤트 루프를 돌리고 있을 수 있으므로 새 스레드에서 돌립니다.
    results = []
    runner = threading.Thread(target=lambda: results.append(asyncio.run(main())))
    runner.start()
    runner.join()
    (inherited,) = results
    assert log == [("training", "Square"), ("inference", None)]
    assert inherited is False
    assert Config.enable_backprop is True


@pytest.mark.slow
def test_jupyter_cells_keep_the_mode_like_a_script():
    """실제 커널(ipykernel)에서: 한 셀에서 바꾼 모드가 다음 셀에 남고, 셀에 걸친 no_grad도 닫힙니다."""
    nbformat = pytest.importorskip("nbformat")
    nbclient = pytest.importorskip("nbclient")
    cells = [
        "import numpy as np\nimport tinygrad_ko as tg\ntg.Config.enable_backprop = False",
        "print(tg.Config.enable_backprop)\ntg.Config.enable_backprop = True",
        "block = tg.no_grad()\nblock.__enter__()",
        "print(tg.square(tg.Variable(np.array(2.0))).creator)",
        "block.__exit__(None, None, None)\nprint(tg.Config.enable_backprop)",
    ]
    notebook = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(c) for c in cells])
    nbclient.NotebookClient(notebook, kernel_name="python3", timeout=120).execute()
    printed = ["".join(o.get("text", "") for o in cell.outputs) for cell in notebook.cells]
    assert printed == ["", "False\n", "", "None\n", "True\n"]
