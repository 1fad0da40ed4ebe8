"""이슈 16: 적대적인 사용자가 최종 엔진에서 찾은 조용한 오답, 망가진 상태, 뜻을 알 수 없던 오류.

항목 번호는 이슈 16의 번호입니다. 각 항목에는 이슈를 올린 때의 코드(7ad5f66)에서 실패하는 테스트가
적어도 하나 있습니다(`PYTHONPATH=/path/to/7ad5f66/src pytest tests/autograd/test_adversarial.py`).
`Value`와 신경망(`nn`)의 항목은 tests/micrograd/test_adversarial.py에, PyTorch와 직접 비교하는 것은
test_adversarial_torch.py에 있습니다.
"""

from __future__ import annotations

import asyncio
import copy
import pickle
import threading
import warnings

import numpy as np
import pytest

import tinygrad_ko as tg
from tinygrad_ko import Config, Function, Variable
from tinygrad_ko.steps import step04
from tinygrad_ko.tools.viz import to_dot, to_mermaid


def korean_instruction(error: BaseException) -> str:
    """메시지가 한국어로, 무엇을 하라는 말(-세요)로 끝나는지 확인하고 메시지를 돌려줍니다."""
    message = str(error)
    assert any("가" <= ch <= "힣" for ch in message), message
    assert "세요" in message, message
    return message


# --- 항목 2: 정수와 bool 배열이 틀린 미분값을 냄 ------------------------------------------------


@pytest.mark.parametrize(
    ("data", "op"),
    [
        (np.array(3, dtype=np.uint8), lambda x: -x),  # 고치기 전: 미분값 255
        (np.array(100, dtype=np.int8), tg.square),  # 고치기 전: 값 16, 미분값 -56
        (np.array(True), lambda x: x + x),  # 고치기 전: 미분값 True
        (np.array([1, 2], dtype=np.int64), lambda x: x * 2.0),
    ],
)
def test_item2_integer_and_bool_variables_are_refused_with_how_to_convert(data, op):
    with pytest.raises(TypeError) as info:
        op(Variable(data)).backward()
    message = korean_instruction(info.value)
    assert f"dtype: {data.dtype}" in message
    assert "astype(np.float32)" in message and "astype(np.float64)" in message
    assert "requires_grad=False" in message


def test_item2_uint8_image_converted_as_the_message_says_gives_the_right_gradient():
    image = np.array([[0, 128, 255]], dtype=np.uint8)
    x = Variable(image.astype(np.float32) / 255)
    y = -x
    y.backward()
    assert x.grad.dtype == np.float32
    np.testing.assert_array_equal(x.grad, -np.ones((1, 3), dtype=np.float32))


def test_item2_integer_constants_still_work_without_gradient():
    mask = Variable(np.array([1, 0, 1]), requires_grad=False)
    w = Variable(np.array([0.5, 0.5, 0.5]))
    y = w * mask
    y.backward()
    np.testing.assert_array_equal(w.grad, [1.0, 0.0, 1.0])
    assert mask.grad is None and not (-mask).requires_grad


# --- 항목 3: 복소수 배열을 조용히 받음 --------------------------------------------------------


def test_item3_complex_variable_is_refused():
    with pytest.raises(TypeError) as info:
        tg.square(Variable(np.array(1 + 2j))).backward()  # 고치기 전: 미분값 2+4j(켤레 없이)
    assert "data.real, data.imag" in korean_instruction(info.value)


def test_item3_backward_from_a_complex_output_is_refused_like_pytorch():
    x = Variable(np.array(2.0))
    y = x * np.array(1j)  # 상수가 복소수라 출력이 복소수
    with pytest.raises(TypeError, match="복소수 출력") as info:
        y.backward()
    korean_instruction(info.value)
    assert x.grad is None


# --- 항목 4와 시작값 결정: 반복 역전파는 새 미분값에서 시작 --------------------------------------


def three_x_squared():
    x = Variable(np.array(2.0))
    t = x * x
    y = t * 3.0
    return x, t, y


def test_item4_second_backward_after_retain_grad_is_not_compounded():
    x, t, y = three_x_squared()
    y.backward(retain_grad=True, retain_graph=True)
    y.backward()
    assert x.grad == 24.0  # PyTorch: 12 + 12. 고치기 전: 36(남은 t.grad가 다시 시작값이 됨)


def test_item4_backward_from_an_intermediate_starts_from_one_not_its_retained_grad():
    x, t, y = three_x_squared()
    y.backward(retain_grad=True, retain_graph=True)
    assert t.grad == 3.0
    x.cleargrad()
    t.backward()
    assert x.grad == 4.0  # PyTorch: dt/dx = 2x = 4. 고치기 전: 12(t.grad = 3을 시작값으로 씀)


def test_item4_retained_grads_accumulate_like_leaf_grads_like_pytorch():
    x, t, y = three_x_squared()
    y.backward(retain_grad=True, retain_graph=True)
    y.backward(retain_grad=True)
    assert (t.grad, y.grad, x.grad) == (6.0, 2.0, 24.0)  # PyTorch의 retain_grad와 같습니다


def test_seed_decision_preset_grad_is_not_the_seed_gradient_argument_is():
    x = Variable(np.array([1.0, 2.0]))
    y = x * 3.0
    y.grad = np.array([10.0, 10.0])  # 책 7단계의 방식: 최종 엔진은 PyTorch처럼 쓰지 않습니다.
    y.backward(retain_graph=True)
    np.testing.assert_array_equal(x.grad, [3.0, 3.0])
    x.cleargrad()
    y.backward(gradient=np.array([1.0, 2.0]))
    np.testing.assert_array_equal(x.grad, [3.0, 6.0])


def test_seed_decision_bad_gradient_and_positional_array_are_explained():
    x = Variable(np.ones(2))
    y = x * 2.0
    with pytest.raises(TypeError, match=r"backward\(gradient=\.\.\.\)") as info:
        y.backward(np.ones(2))  # PyTorch식으로 첫 인수에 시작값을 넣은 경우
    korean_instruction(info.value)
    with pytest.raises(TypeError, match="실수 배열") as info:
        y.backward(gradient=np.ones(2, dtype=np.int64))
    korean_instruction(info.value)
    assert x.grad is None


def test_item11_flags_of_backward_and_grad_must_be_bool():
    x = Variable(np.array(2.0))
    y = x * 3.0
    for call in (
        lambda: y.backward(retain_grad="yes"),
        lambda: y.backward(create_graph=1),
        lambda: tg.grad(y, x, create_graph="True"),
        lambda: tg.grad(y, x, allow_unused=None),
    ):
        with pytest.raises(TypeError, match="True나 False") as info:
            call()
        korean_instruction(info.value)
    assert x.grad is None


def test_seed_decision_leaf_backward_accumulates_like_pytorch():
    x = Variable(np.array(2.0))
    x.backward()
    x.backward()
    assert x.grad == 2.0
    with pytest.raises(RuntimeError, match="requires_grad=False") as info:
        Variable(np.array(1.0), requires_grad=False).backward()
    korean_instruction(info.value)


# --- 항목 5: x ** 0의 x = 0에서의 미분값 -----------------------------------------------------


def test_item5_zeroth_power_at_zero_has_gradient_zero_like_pytorch():
    x = Variable(np.array([0.0, 2.0]))
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # 고치기 전: 0으로 나누기 경고와 NaN
        (x**0).backward()
    np.testing.assert_array_equal(x.grad, [0.0, 0.0])


# --- 항목 6: 순전파 뒤 data를 바꾸면 조용히 틀린 미분값 ------------------------------------------


def test_item6_reassigned_data_of_a_kept_input_is_detected_and_named():
    x = Variable(np.array(2.0), name="x")
    y = tg.square(x)
    original = x.data
    x.data = np.array(5.0)  # 고치기 전: 미분값 10(5에서의 미분), 오류 없음
    with pytest.raises(RuntimeError, match="'x'") as info:
        y.backward()
    korean_instruction(info.value)
    assert x.grad is None
    x.data = original  # 순전파 때의 배열로 되돌리면 같은 그래프로 역전파할 수 있습니다
    y.backward()
    assert x.grad == 4.0


def test_item6_a_replaced_array_that_was_freed_is_still_detected():
    # 기억하는 것은 약한 참조입니다. 옛 배열이 사라져 주소가 새 배열에 다시 쓰여도 잡습니다.
    x = Variable(np.array([2.0, 3.0]))
    y = x * x
    for value in (5.0, 2.0, 2.0):
        x.data = np.array([value, 3.0])
    with pytest.raises(RuntimeError, match="다른 배열로 바뀌었습니다"):
        y.backward()


def test_item6_constants_shown_by_inputs_do_not_confuse_the_check():
    x = Variable(np.array(2.0))
    y = x * np.array(3.0)
    assert [v.requires_grad for v in y.creator.inputs] == [True, False]  # 상수를 감싸 보여 줍니다
    y.backward()
    assert x.grad == 3.0


def test_item6_detected_in_book_style_user_functions_and_create_graph():
    class Cube(Function):
        def forward(self, x):
            return x**3

        def backward(self, gy):
            x = self.inputs[0].data
            return 3 * x**2 * gy

    x = Variable(np.array(2.0))
    y = Cube()(x)
    x.data = np.array(1.0)
    with pytest.raises(RuntimeError, match="Cube의 0번 입력"):
        y.backward()
    z = Variable(np.array(2.0), name="z")
    w = tg.sin(z)
    z.data = np.array(0.0)
    with pytest.raises(RuntimeError, match=r"Sin의 0번 입력\(.z.\)"):
        w.backward(create_graph=True)


def test_item6_inputs_that_backward_does_not_need_may_change():
    x = Variable(np.array(2.0))
    y = x * 3.0 + tg.exp(x)  # Mul(상수)와 Exp는 x의 값을 쓰지 않습니다
    x.data = np.array(100.0)
    y.backward()
    assert x.grad == pytest.approx(3.0 + np.exp(2.0))


# --- 항목 7: 해제된 그래프를 틀리게 그림 ----------------------------------------------------


@pytest.mark.parametrize("draw", [to_mermaid, to_dot])
def test_item7_drawing_a_graph_released_by_backward_says_retain_graph(draw):
    x = Variable(np.array(2.0), name="x")
    y = tg.exp(tg.square(x))
    y.backward()
    with pytest.raises(RuntimeError, match=r"retain_graph=True") as info:
        draw(y, show_grad=True)  # 고치기 전: 마지막 노드만 그린 틀린 그림
    korean_instruction(info.value)
    kept = Variable(np.array(2.0), name="x")
    z = tg.exp(tg.square(kept))
    z.backward(retain_graph=True)
    assert "grad = " in draw(z, show_grad=True) and "Square" in draw(z)


# --- 항목 8: 쓰이지 않은 입력의 gradient_check ------------------------------------------------


def test_item8_gradient_check_counts_an_unused_input_as_zero_gradient():
    def f(a, b):
        return a * 2.0  # b는 쓰지 않습니다

    assert tg.gradient_check(f, np.array(1.0), np.array(2.0))  # 고치기 전: False
    assert not tg.gradient_check(lambda a: BadSquare()(a), np.array(1.5))


class BadSquare(Function):
    def forward(self, x):
        return x**2

    def backward(self, gy):
        return 3 * self.inputs[0].data * gy  # 일부러 틀린 미분


# --- 항목 9: 실패한 역전파가 미분값 일부를 남기고 그래프를 해제함 --------------------------------


class Flaky(Function):
    """첫 backward에서만 실패하는 사용자 함수(고칠 수 있는 오류를 흉내 냅니다)."""

    def __init__(self, error: BaseException) -> None:
        self.error = error

    def forward(self, x):
        return x * 2.0

    def backward(self, gy):
        if self.error is not None:
            error, self.error = self.error, None
            raise error
        return gy * 2.0


@pytest.mark.parametrize("error", [ZeroDivisionError("실수"), KeyboardInterrupt()])
def test_item9_failed_backward_leaves_grads_untouched_and_a_retry_works(error):
    x = Variable(np.array(1.0))
    w = Variable(np.array(3.0))
    x.grad = np.array(100.0)  # 앞선 역전파가 남긴 값
    y = Flaky(error)(x) + x * w  # x * w 쪽이 먼저 처리되어 x, w에 미분값이 갑니다
    with pytest.raises(type(error)):
        y.backward(retain_grad=True)
    assert x.grad == 100.0 and w.grad is None and y.grad is None  # 고치기 전: x.grad 103, w.grad 1
    y.backward()  # 고치기 전: "이미 해제되었습니다"
    assert x.grad == 100.0 + 2.0 + 3.0 and w.grad == 1.0


def test_item9_refused_create_graph_midway_leaves_no_partial_variable_grads():
    class Plain(Function):  # create_graph를 지원한다고 표시하지 않은 사용자 함수
        def forward(self, x):
            return x * 2.0

        def backward(self, gy):
            return gy * 2.0

    x = Variable(np.array(1.0))
    y = tg.sin(x) + Plain()(x)  # Sin이 먼저 처리되어 x에 cos(1)을 보낸 뒤 Plain에서 멈춥니다
    with pytest.raises(TypeError, match="supports_create_graph"):
        y.backward(create_graph=True)
    assert x.grad is None  # 고치기 전: cos(1)이 담긴 Variable이 남아 다음 역전파에 더해짐
    y.backward()
    assert x.grad == pytest.approx(2.0 + np.cos(1.0))


def test_item9_grad_function_failure_leaves_the_graph_usable():
    x = Variable(np.array(1.0))
    y = Flaky(ValueError("실수"))(x) * 3.0  # Mul을 마친 뒤 Flaky에서 멈춥니다
    with pytest.raises(ValueError):
        tg.grad(y, x)
    (gx,) = tg.grad(y, x)  # 고치기 전: Mul의 그래프가 이미 해제되었다는 오류
    assert gx == 6.0


# --- 항목 10: 스레드와 Function 인스턴스의 재사용 ----------------------------------------------


def test_item10_one_instance_first_called_by_two_threads_gives_two_correct_graphs():
    both_inside = threading.Barrier(2, timeout=10)

    class Slow(Function):
        def forward(self, x):
            both_inside.wait()  # 두 스레드가 같은 인스턴스의 forward 안에 함께 있게 합니다
            return x * x

        def backward(self, gy):
            return 2 * self.inputs[0].data * gy

    f = Slow()
    xs = [Variable(np.array(3.0)), Variable(np.array(5.0))]
    ys = [None, None]

    def call(i):
        ys[i] = f(xs[i])

    threads = [threading.Thread(target=call, args=(i,)) for i in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert ys[0].creator is not ys[1].creator  # 고치기 전: 두 출력의 창조자가 같은 객체
    for y in ys:
        y.backward()
    assert (xs[0].grad, xs[1].grad) == (6.0, 10.0)


def test_item10_reused_instance_does_not_inherit_the_first_graphs_broadcast_shapes():
    f = tg.Add()
    f(Variable(np.ones(3)), Variable(np.ones(1)))  # 브로드캐스트: 입력의 모양을 기억합니다
    a, b = Variable(np.ones(3)), Variable(np.ones(3))
    f(a, b).backward()
    np.testing.assert_array_equal(b.grad, np.ones(3))  # 고치기 전: [3.](첫 그래프의 모양으로 더함)


def test_item10_reuse_with_a_mutable_attribute_is_refused_clearly():
    class Remember(Function):
        def __init__(self):
            self.saved = []

        def forward(self, x):
            self.saved.append(x)
            return x * 2.0

        def backward(self, gy):
            return gy * 2.0

    f = Remember()
    f(Variable(np.array(1.0)))
    with pytest.raises(TypeError, match="saved") as info:
        f(Variable(np.array(2.0)))  # 고치기 전: 두 그래프가 같은 리스트를 나눠 씀
    assert "Remember(...)(x)" in korean_instruction(info.value)
    # 그래프에 들지 않은 호출(no_grad)은 인스턴스를 차지하지 않습니다.
    g = Remember()
    with tg.no_grad():
        g(Variable(np.array(1.0)))
    g(Variable(np.array(2.0)))
    assert len(g.saved) == 2


# --- 항목 11: 모드 스위치(스레드, 잘못된 값, asyncio, Jupyter) ---------------------------------


def test_item11_leaving_no_grad_from_another_thread_is_refused_and_changes_nothing():
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
def test_item11_config_refuses_values_that_are_not_bool(value):
    with pytest.raises(TypeError, match="True나 False") as info:
        Config.enable_backprop = value  # 고치기 전: "False"가 참으로 저장됨
    korean_instruction(info.value)
    assert Config.enable_backprop is True
    with pytest.raises(TypeError, match="True나 False"):
        tg.using_config("enable_backprop", value)


def test_item11_asyncio_tasks_have_their_own_mode():
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
def test_item11_jupyter_cells_keep_the_mode_like_a_script():
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


# --- 뜻을 알 수 없던 오류들 -----------------------------------------------------------------


def test_cryptic_bool_of_a_variable():
    assert bool(Variable(np.array(2.0))) is True  # 고치기 전: TypeError len() of unsized object
    assert bool(Variable(np.array([0.0]))) is False
    with pytest.raises(ValueError, match="원소가 2개") as info:
        bool(Variable(np.array([0.0, 0.0])))  # 고치기 전: True(길이가 2라서)
    korean_instruction(info.value)
    with pytest.raises(TypeError, match="x.size") as info:
        len(Variable(np.array(1.0)))
    korean_instruction(info.value)


def test_cryptic_variable_with_none_data_in_an_operation():
    with pytest.raises(TypeError, match="data가 None") as info:
        Variable(None, name="w") + 1  # 고치기 전: unsupported operand type(s) ... 'NoneType'
    assert "'w'" in korean_instruction(info.value)
    with pytest.raises(TypeError, match="data가 None"):
        tg.square(Variable(None))


def test_cryptic_pickling_keeps_values_like_pytorch():
    x = Variable(np.array(2.0), name="x")
    y = tg.square(x)
    x.grad = np.array(1.0)
    restored = pickle.loads(pickle.dumps(y))  # 고치기 전: cannot pickle 'weakref.ReferenceType'
    assert restored.data == 4.0 and restored.creator is None and restored.requires_grad
    leaf = pickle.loads(pickle.dumps(x))
    assert leaf.name == "x" and leaf.grad is None  # PyTorch도 pickle에 grad를 담지 않습니다
    deep = x
    for _ in range(5000):
        deep = deep * 1.0
    assert pickle.loads(pickle.dumps(deep)).data == 2.0  # 고치기 전: RecursionError
    constant = pickle.loads(pickle.dumps(Variable(np.array([1, 2]), requires_grad=False)))
    assert not constant.requires_grad


def test_cryptic_pickling_a_function_of_a_graph_is_refused_in_korean():
    y = tg.square(Variable(np.array(2.0)))
    with pytest.raises(TypeError, match="pickle") as info:
        pickle.dumps(y.creator)
    korean_instruction(info.value)
    assert pickle.loads(pickle.dumps(tg.Pow(3))).c == 3  # 그래프 밖의 함수는 됩니다


def test_cryptic_deepcopy_of_an_intermediate_is_refused_and_leaves_copy_fine():
    x = Variable(np.array([2.0]), name="x")
    x.grad = np.array([5.0])
    y = tg.square(x)
    with pytest.raises(RuntimeError, match="deepcopy") as info:
        copy.deepcopy(y)  # 고치기 전: 복사본의 역전파가 'NoneType' ... 오류
    korean_instruction(info.value)
    twin = copy.deepcopy(x)
    assert twin is not x and twin.data is not x.data and twin.grad is not x.grad
    assert (twin.name, twin.data[0], twin.grad[0]) == ("x", 2.0, 5.0)  # PyTorch처럼 grad도 복사
    shallow = copy.copy(y)  # PyTorch처럼 값만 담은 말단 변수
    assert shallow.creator is None and shallow.data[0] == 4.0


def test_cryptic_book_style_set_creator_is_refused_with_what_to_do():
    f = tg.Square()
    y = Variable(np.array(4.0))
    with pytest.raises(RuntimeError, match=r"Square\(\)\(x\)") as info:
        y.set_creator(f)  # 고치기 전: backward에서 "그래프는 이미 해제되었습니다"
    assert "step07" in korean_instruction(info.value)
    y.creator = f  # 속성을 직접 바꾼 경우에도 역전파가 같은 설명을 합니다
    with pytest.raises(RuntimeError, match="호출되어 그래프에 든 함수가 아닙니다"):
        y.backward()


def test_cryptic_backward_returning_a_list():
    class ListBack(Function):
        def forward(self, a, b):
            return a + b

        def backward(self, gy):
            return [gy, gy]

    a, b = Variable(np.array(1.0)), Variable(np.array(2.0))
    with pytest.raises(TypeError, match="리스트") as info:
        ListBack()(a, b).backward()  # 고치기 전: "미분값 1개를 돌려주었지만"
    assert "return gx0, gx1" in korean_instruction(info.value)
    assert a.grad is None and b.grad is None


def test_cryptic_integer_to_a_negative_power():
    n = Variable(np.array(2), requires_grad=False)
    with pytest.raises(ValueError, match="음수 거듭제곱") as info:
        n**-1  # 고치기 전: "입력의 모양"(모양 문제처럼 보고), 그 뒤 영어 NumPy 메시지
    assert "astype(np.float64)" in korean_instruction(info.value)
    assert (n**-1.0).data == 0.5


def test_cryptic_step04_numerical_diff_with_the_final_engine():
    with pytest.raises(TypeError, match="다른 모듈") as info:
        step04.numerical_diff(tg.square, Variable(np.array(2.0)))
    assert "tinygrad_ko.numerical_diff" in korean_instruction(info.value)
    assert tg.numerical_diff(tg.square, Variable(np.array(2.0))) == pytest.approx(4.0)


# --- 결정: float32 변수의 미분값 dtype -------------------------------------------------------


def test_float32_decision_leaf_grad_keeps_the_leaf_dtype_like_pytorch():
    x = Variable(np.array([1.0, 2.0], dtype=np.float32))
    y = x * np.array([2.0, 3.0])  # float64 상수: 출력은 NumPy 규칙대로 float64
    assert y.dtype == np.float64
    y.backward()
    assert x.grad.dtype == np.float32  # 고치기 전: float64
    np.testing.assert_array_equal(x.grad, [2.0, 3.0])
    y2 = tg.exp(x) * np.float64(1.5)
    y2.backward()  # 누적해도 float32
    assert x.grad.dtype == np.float32
    (gx,) = tg.grad(x * np.array([2.0, 3.0]), x)
    assert gx.dtype == np.float32
