"""11단계: 함수가 입력과 출력을 리스트로 주고받게 합니다.

9단계와 비교해 바뀐 것은 ``Function``뿐입니다(``Variable``과 ``as_array``는 9단계 것을
그대로 가져옵니다).

- ``__call__(inputs)``: 변수의 리스트를 받아 변수의 리스트를 돌려줍니다.
- ``forward(xs)``: 데이터의 리스트를 받아 튜플(또는 리스트)을 돌려줍니다.
- ``Add``: 입력이 두 개인 첫 함수입니다.

한계:

- 부르는 쪽이 번거롭습니다: ``Add()([x0, x1])[0]``처럼 리스트로 넣고 꺼내야 합니다
  (12단계에서 고칩니다).
- 역전파는 아직 안 됩니다. 9단계의 ``Variable.backward``는 ``f.input``/``f.output``을
  찾는데, 이 ``Function``은 ``inputs``/``outputs``만 가지므로 ``AttributeError``가 납니다
  (13단계에서 고칩니다).
"""

from .step09 import Variable, as_array

__all__ = ["Add", "Function", "Variable", "as_array"]


# --8<-- [start:function]
class Function:
    """변수의 리스트를 받아 변수의 리스트를 돌려주는 함수의 기반 클래스입니다."""

    def __call__(self, inputs):
        xs = [x.data for x in inputs]
        ys = self.forward(xs)
        outputs = [Variable(as_array(y)) for y in ys]
        for output in outputs:
            output.set_creator(self)
        self.inputs = inputs
        self.outputs = outputs
        return outputs

    def forward(self, xs):
        raise NotImplementedError(
            f"{type(self).__name__}.forward가 구현되지 않았습니다. "
            "Function을 상속한 클래스에서 forward를 정의하세요."
        )

    def backward(self, gys):
        raise NotImplementedError(
            f"{type(self).__name__}.backward가 구현되지 않았습니다. "
            "Function을 상속한 클래스에서 backward를 정의하세요."
        )


# --8<-- [end:function]


# --8<-- [start:add]
class Add(Function):
    """두 입력을 더합니다: y = x0 + x1"""

    def forward(self, xs):
        x0, x1 = xs
        y = x0 + x1
        return (y,)  # 출력도 여러 개일 수 있으므로 튜플로 돌려줍니다.


# --8<-- [end:add]
