"""메모리 계획(memory planning): 값이 마지막으로 읽힌 뒤(liveness) 그 버퍼를 다음 값에 다시 씁니다.

지연 그래프는 계산하기 전에 모든 단계를 알므로, 값마다 "마지막으로 읽히는 단계"를 미리 셀 수 있습니다.
그 단계가 지나면 버퍼를 빈 목록에 돌려놓고, 같은 종류의 다음 값이 그 버퍼를 씁니다. 종류는 부르는 쪽이
정합니다: 커널 사이의 계획(`runner.Plan`)은 dtype과 원소 수, 생성한 NumPy 커널 안(`render_numpy`)은 dtype과
모양입니다. NumPy로 연산 하나에 문장 하나씩 쓰면 문장마다 새 배열이 생기지만, 계획을 세우면 버퍼 몇 개를 돌려
씁니다.

`in_place=True`이면 이번 단계에서 죽는 입력의 버퍼에 이번 단계의 결과를 써도 됩니다(같은 칸을 읽고
쓰는 NumPy의 원소별 함수는 그래도 맞습니다). 생성한 커널은 두 백엔드 모두 출력이 입력과 겹치지 않는다고
보므로(C는 `restrict`로 약속합니다) 커널 사이에서는 쓰지 않습니다.
"""

from __future__ import annotations

from collections.abc import Hashable


# --8<-- [start:assign-slots]
def assign_slots(
    steps: list[tuple[Hashable, tuple, Hashable]],
    keep: set = frozenset(),
    in_place: bool = False,
    given: Hashable | None = None,
) -> tuple[dict, list]:
    """단계마다 (결과 이름, 읽는 이름들, 종류)를 받아, 결과 이름 -> 버퍼 번호를 정합니다.

    종류가 None인 결과와 `keep`에 든 결과는 버퍼를 돌려 쓰지 않습니다(번호 None: 따로 만듭니다).
    `given`을 주면 그 종류의 빈 버퍼 하나(0번)가 처음부터 있습니다(예: 커널의 출력 버퍼를 중간값에도 씁니다).
    돌려주는 값: (번호 표, 번호마다의 종류).
    """
    last_read = {}
    for i, (_, reads, _) in enumerate(steps):
        for name in reads:
            last_read[name] = i
    free: dict = {} if given is None else {given: [0]}
    kinds: list = [] if given is None else [given]
    slot_of: dict = {}

    def release(i: int, reads: tuple) -> None:
        for name in dict.fromkeys(reads):  # 읽은 순서대로(같은 계획이 늘 같게)
            slot = slot_of.get(name)
            if slot is not None and last_read[name] == i:
                free.setdefault(kinds[slot], []).append(slot)

    for i, (name, reads, kind) in enumerate(steps):
        if in_place:
            release(i, reads)
        if kind is None or name in keep:
            slot_of[name] = None
        elif free.get(kind):
            slot_of[name] = free[kind].pop()
        else:
            slot_of[name] = len(kinds)
            kinds.append(kind)
        if not in_place:
            release(i, reads)
    return slot_of, kinds
    # --8<-- [end:assign-slots]
