"""벤치마크 명령이 새 저장소에서 돌고, 모든 작업이 올바른 미분값으로 끝나는지 확인합니다.

시간은 확인하지 않습니다(속도는 `python3 dev.py bench`로 잽니다). 작은 크기(--quick)로 엔진마다
하위 프로세스를 띄우는 길, 미분값 검사, 표 출력이 모두 살아 있는지만 봅니다.
"""

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
FAILURE_MARKS = ("시간 초과", "비정상 종료", "틀린 미분값")


@pytest.mark.slow  # 엔진마다 하위 프로세스를 띄웁니다
def test_quick_benchmark_runs_every_workload():
    engines = "tinygrad_ko,step24,step08,value,lazy"
    completed = subprocess.run(
        [sys.executable, "benchmarks/run.py", "--quick", "--only", engines],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    output = completed.stdout + completed.stderr
    assert completed.returncode == 0, output
    rows = [line for line in completed.stdout.splitlines() if line.startswith("|")]
    header = next(row for row in rows if row.startswith("| 작업 |"))
    for engine in engines.split(","):
        assert f"`{engine}`" in header
    for mark in FAILURE_MARKS:  # 표의 칸에 실패가 적히면 안 됩니다(설명 문단은 보지 않습니다).
        assert not [row for row in rows if mark in row], mark
    assert "Traceback" not in completed.stderr


@pytest.mark.slow  # 커널 열두 개를 컴파일합니다
def test_fusion_limits_benchmark_writes_its_table(tmp_path):
    """56장이 읽는 벤치마크: 작은 배열로 돌려, 후보마다 시간과 (gcc라면) 벡터화 여부가 적히는지 봅니다."""
    import json

    from tinygrad_ko.lazy import compiler

    if compiler.command() is None:
        pytest.skip("C 컴파일러가 없어 이 벤치마크는 잴 것이 없습니다")
    out = tmp_path / "fusion.json"
    completed = subprocess.run(
        [sys.executable, "benchmarks/fusion_limits.py", "--sizes", "32", "--repeats", "1"]
        + ["--json", str(out)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert completed.returncode == 0, completed.stdout + completed.stderr
    rows = json.loads(out.read_text(encoding="utf-8"))["sizes"]["32"]
    assert all(len(row["ms"]) == 1 for row in rows.values())
    if compiler.is_gcc():
        assert rows["C 사슬 기본"]["vectorized"] and not rows["C exp 기본"]["vectorized"]


@pytest.mark.slow  # 커널 다섯 개를 컴파일합니다
def test_fusion_limits_order_mode_times_both_orders(tmp_path):
    """56장이 읽는 입력 순서 실험(--order): 같은 값을 섞은 순서와 정렬한 순서로 잰 두 줄이 후보마다 적히는지 봅니다."""
    import json

    from tinygrad_ko.lazy import compiler

    if compiler.command() is None:
        pytest.skip("C 컴파일러가 없어 이 벤치마크는 잴 것이 없습니다")
    out = tmp_path / "order.json"
    completed = subprocess.run(
        [sys.executable, "benchmarks/fusion_limits.py", "--order", "--sizes", "32"]
        + ["--repeats", "1", "--json", str(out)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert completed.returncode == 0, completed.stdout + completed.stderr
    rows = json.loads(out.read_text(encoding="utf-8"))["sizes"]["32"]
    for case in ("C 융합 기본", "C 두 커널 기본", "C 사슬 기본", "C 사슬 -fno-trapping-math 뺌"):
        assert len(rows[f"{case}, 섞은 입력"]["ms"]) == 1
        assert len(rows[f"{case}, 정렬한 입력"]["ms"]) == 1


def test_alternate_changes_which_candidate_runs_just_before_each_one():
    """번갈아 재기: 돌려 놓기만 하면 후보마다 바로 앞 후보가 늘 같아(방금 풀린 출력 버퍼가 캐시에 남는 등)
    한쪽으로 치우칩니다. 반복마다 섞되, 씨앗을 고정해 같은 순서를 다시 얻을 수 있어야 합니다."""
    import itertools
    import time

    sys.path.insert(0, str(ROOT / "benchmarks"))
    try:
        from lazy_work import alternate
    finally:
        sys.path.remove(str(ROOT / "benchmarks"))

    def record() -> list[str]:
        order: list[str] = []
        calls = {name: (lambda name=name: order.append(name)) for name in "abcd"}
        alternate(calls, 40, time.process_time_ns)
        return order

    order = record()
    assert all(order.count(name) == 40 for name in "abcd")
    pairs = list(itertools.pairwise(order))
    before = {name: {prev for prev, cur in pairs if cur == name} for name in "abcd"}
    assert all(set("abcd") - {name} <= before[name] for name in "abcd"), before
    assert record() == order
