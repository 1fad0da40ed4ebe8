"""micrograd 곁가지: 스칼라 하나를 담는 `Value`와 그 위의 작은 신경망. NumPy 없이 순수 파이썬으로 돕니다.

45장의 클로저 방식 `Value`(`closure`), 라이브러리의 `Value`(`value`), 그 위의 `Neuron`·`Layer`·`MLP`와
학습 함수(`nn`), 부록의 전진 모드 자동 미분(이원수, `dual`). 텐서 엔진의 층과 모델은 `tinygrad_ko.nn`에 있습니다.
"""

from .value import Value, topological_order

__all__ = ["Value", "topological_order"]
