"""같은 실행 안에서 구하는 비율과 그 목표: 벤치마크 표의 "비율과 목표" 절이 이 표를 그대로 그립니다.

목표를 바꾸거나 더할 때는 이 표만 고칩니다. 한 줄은 다음과 같습니다.

- ``label``: 표의 첫 칸. ``{n}``(원소별 작업의 배열 한 변), ``{m}``(행렬 곱 작업의 한 변),
  ``{nl}``(지연 엔진의 L3 밖 사슬의 한 변), ``{k1}``, ``{k2}``(가지 수)는 이번
  실행의 크기로 채웁니다.
- ``value``: (잴 값의 이름, 엔진). 값의 이름은 ``table.MEASURES``에 있습니다.
- ``over``: 있으면 ``value ÷ over``를 적습니다.
- ``spec``, ``unit``: 값을 적는 모양. ``format(값, spec) + unit``입니다(기본값은 "1.23배").
- ``goal``: (비교, 기준) 또는 (비교, 기준, 말로 쓴 목표). 기준은 수이거나 이번 실행의 크기에서
  구하는 값의 이름(``"deepest_tried"``: 시험한 가장 깊은 사슬)입니다. ``None``이면 참고로만
  적고 판정하지 않습니다.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Target:
    label: str
    value: tuple[str, str]
    over: tuple[str, str] | None = None
    spec: str = ".2f"
    unit: str = "배"
    goal: tuple | None = None


# 물러난 목표(이슈 31): 0차원 사슬의 µs/연산(÷ step24, ÷ torch)과 1000×1000 원소별 연산 20개(÷ NumPy, ÷ torch).
# 학습자가 돌리지 않는 작업에서 상수 배의 장치(0차원 실수를 NumPy 스칼라로 넘기기, 큰 미분값 배열을 제자리로
# 덮어쓰기)를 두게 만든 목표라, 그 장치(빠른 길)를 지우면서 함께 내려놓았습니다. 두 작업은 표에 그대로 남아
# 연산 하나의 비용과 큰 배열의 비용을 보여 줍니다. 목표는 학습자가 돌리는 작업(손글씨 숫자, CNN, LSTM, GPT)과
# 알고리즘의 차이(가지 K의 배율, 깊이, 메모리)에 둡니다.
TARGETS = (
    Target(
        "가지 K = {k2:,} 역전파: step16 ÷ tinygrad_ko(몇 배 빠른가)",
        value=("fanin_large_ms", "step16"),
        over=("fanin_large_ms", "tinygrad_ko"),
        spec=".0f",
        goal=(">=", 30),
    ),
    Target(
        "가지 K = {k1:,} → {k2:,}: tinygrad_ko 역전파 시간의 배율",
        value=("fanin_large_ms", "tinygrad_ko"),
        over=("fanin_small_ms", "tinygrad_ko"),
        spec=".1f",
        goal=("<=", 13),
    ),
    Target(
        "{n}×{n} `y = y * c + d` 사슬 순전파+역전파 시간: tinygrad_ko ÷ torch",
        value=("affine_ms", "tinygrad_ko"),
        over=("affine_ms", "torch"),
        goal=("<=", 1.05, "PyTorch와 같은 수준"),
    ),
    Target(
        "같은 사슬을 기록한 순전파의 최대 메모리: tinygrad_ko ÷ torch",
        value=("affine_peak_mb", "tinygrad_ko"),
        over=("affine_peak_mb", "torch"),
        goal=("<=", 1.05, "PyTorch와 같은 수준"),
    ),
    Target(
        "{m}×{m} 행렬 곱 사슬 순전파+역전파: tinygrad_ko ÷ NumPy",
        value=("matmul_ratio", "tinygrad_ko"),
        goal=("<=", 1.1),
    ),
    Target(
        "두 층 신경망 학습 스텝(배치 100×1): tinygrad_ko ÷ dezero",
        value=("mlp_us", "tinygrad_ko"),
        over=("mlp_us", "dezero"),
        goal=("<", 1),
    ),
    Target(
        "두 층 신경망 학습 스텝(배치 100×1): tinygrad_ko ÷ torch",
        value=("mlp_us", "tinygrad_ko"),
        over=("mlp_us", "torch"),
        goal=("<=", 1.5),
    ),
    Target(
        "손글씨 숫자 한 에포크(배치 100): tinygrad_ko ÷ dezero",
        value=("digits_ms", "tinygrad_ko"),
        over=("digits_ms", "dezero"),
        goal=("<", 1),
    ),
    Target(
        "손글씨 숫자 한 에포크(배치 100): tinygrad_ko ÷ torch",
        value=("digits_ms", "tinygrad_ko"),
        over=("digits_ms", "torch"),
        goal=("<=", 1),
    ),
    Target(
        "합성곱 64×1×28×28, 필터 16개 5×5, 순전파+역전파: tinygrad_ko ÷ torch",
        value=("conv_ms", "tinygrad_ko"),
        over=("conv_ms", "torch"),
        goal=("<=", 2),
    ),
    Target(
        "손글씨 숫자 CNN 한 에포크: tinygrad_ko ÷ torch",
        value=("cnn_ms", "tinygrad_ko"),
        over=("cnn_ms", "torch"),
        goal=("<=", 1.5),
    ),
    Target(
        "LSTM 잘린 역전파 한 스텝: tinygrad_ko ÷ torch",
        value=("lstm_ms", "tinygrad_ko"),
        over=("lstm_ms", "torch"),
        goal=("<=", 1.5),
    ),
    Target(
        "tinygrad_ko의 역전파가 성공하는 가장 깊은 사슬",
        value=("deepest", "tinygrad_ko"),
        spec=",.0f",
        unit="",
        goal=(">=", "deepest_tried"),
    ),
    Target(
        "tinygrad_ko `no_grad` 순전파의 최대 메모리, 배열 개수",
        value=("no_grad_arrays", "tinygrad_ko"),
        unit="개",
        goal=("<=", 2.5, "약 2개"),
    ),
    Target(
        "tinygrad_ko 역전파 뒤 `y`를 쥔 채 남은 메모리, 배열 개수",
        value=("held_arrays", "tinygrad_ko"),
        unit="개",
        goal=("<=", 4, "몇 개"),
    ),
    Target(
        "0차원 사슬 순전파+역전파 노드당 시간: Value ÷ micrograd",
        value=("chain_us", "value"),
        over=("chain_us", "micrograd"),
        goal=("<=", 1),
    ),
    Target(
        "한국어 microGPT 학습 스텝: value ÷ tinygrad_ko(텐서판이 몇 배 빠른가)",
        value=("gpt_ms", "value"),
        over=("gpt_ms", "tinygrad_ko"),
        spec=".0f",
        goal=(">=", 50),
    ),
    Target(
        "Value판 microGPT 스텝의 노드당 µs ÷ micrograd 0차원 사슬의 노드당 µs",
        value=("gpt_node_us", "value"),
        over=("chain_us", "micrograd"),
        goal=("<=", 1),
    ),
    Target(
        "Value판 microGPT 스텝의 노드당 µs ÷ Value 0차원 사슬의 노드당 µs(참고)",
        value=("gpt_node_us", "value"),
        over=("chain_us", "value"),
    ),
    # 제6고지: 지연 엔진. 20개 연산 사슬의 목표는 issue 33에서 왔습니다(다른 기계에서 잰 사실에서 정한 값).
    Target(
        "제6고지 {n}×{n} float32 사슬 20개 순전파: NumPy ÷ 지연 텐서(몇 배 빠른가)",
        value=("lazy_chain_numpy_ms", "lazy"),
        over=("lazy_chain_lazy_ms", "lazy"),
        spec=".1f",
        goal=(">=", 15),
    ),
    Target(
        "같은 사슬: 지연 텐서 ÷ `np.copyto`(한 번 읽고 한 번 쓰기)",
        value=("lazy_chain_lazy_ms", "lazy"),
        over=("lazy_chain_copy_ms", "lazy"),
        spec=".1f",
        goal=("<=", 2),
    ),
    Target(
        "같은 사슬: NumPy ÷ 지연 되풀이(참고)",
        value=("lazy_chain_numpy_ms", "lazy"),
        over=("lazy_chain_replay_ms", "lazy"),
        spec=".1f",
    ),
    Target(
        "같은 사슬: 지연 되풀이 ÷ `np.copyto`(참고)",
        value=("lazy_chain_replay_ms", "lazy"),
        over=("lazy_chain_copy_ms", "lazy"),
        spec=".1f",
    ),
    Target(
        "같은 사슬을 큰 배열({nl}×{nl})에서: NumPy ÷ 지연 텐서(참고)",
        value=("lazy_chain_large_numpy_ms", "lazy"),
        over=("lazy_chain_large_lazy_ms", "lazy"),
        spec=".1f",
    ),
    Target(
        "큰 배열에서: 지연 텐서 ÷ `np.copyto`(참고)",
        value=("lazy_chain_large_lazy_ms", "lazy"),
        over=("lazy_chain_large_copy_ms", "lazy"),
        spec=".1f",
    ),
    Target(
        "큰 배열에서: 지연 되풀이 ÷ `np.copyto`(참고)",
        value=("lazy_chain_large_replay_ms", "lazy"),
        over=("lazy_chain_large_copy_ms", "lazy"),
        spec=".1f",
    ),
    Target(
        "같은 사슬의 융합한 역전파: 최종 엔진 ÷ 지연 텐서(몇 배 빠른가, 참고)",
        value=("lazy_backward_eager_ms", "lazy"),
        over=("lazy_backward_lazy_ms", "lazy"),
        spec=".1f",
    ),
    Target(
        "학습 스텝: 최종 엔진 ÷ 지연 텐서(참고)",
        value=("lazy_train_eager_ms", "lazy"),
        over=("lazy_train_lazy_ms", "lazy"),
        spec=".1f",
    ),
    Target(
        "학습 스텝: 최종 엔진 ÷ 지연 되풀이(참고)",
        value=("lazy_train_eager_ms", "lazy"),
        over=("lazy_train_replay_ms", "lazy"),
        spec=".1f",
    ),
    Target(
        "지연 엔진의 커널 하나를 처음 부를 때(컴파일 포함, 참고)",
        value=("lazy_compile_compile_s", "lazy"),
        spec=".2f",
        unit=" s",
    ),
)
