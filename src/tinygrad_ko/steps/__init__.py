"""단계별 스냅숏: 「밑바닥부터 시작하는 딥러닝 3」의 각 단계에서 엔진이 어떤 모습인지 보여 줍니다.

N단계를 다루는 페이지는 N단계의 모듈을 가져옵니다. 그 단계의 한계도 그대로 재현합니다.
한계를 고친 엔진은 ``tinygrad_ko``의 최종 엔진입니다. 스냅숏은 NumPy와 앞 단계의 모듈에만
기대고, 최종 엔진은 가져오지 않습니다.

스냅숏의 코드는 책의 DeZero 코드(MIT 라이선스, Copyright (c) 2019 Koki Saitoh)를 바탕으로 합니다.
그 라이선스 고지는 이 폴더의 ``LICENSE-DeZero.txt``에 있습니다.

모듈      책의 단계  더하는 것(+), 고쳐 다시 정의한 것(~), 내보내지 않는 것(-), 알려진 한계(!)
--------  ---------  ---------------------------------------------------------------
step01    1          + Variable: 데이터를 담는 상자
                     ! 무엇이든 담깁니다(검사하지 않음)
step02    2          + Function 기반 클래스(__call__ → forward), Square
                     ! 미분이 없습니다
step03    3          + Exp, 함수를 이어 붙인 합성 함수
                     ! 미분이 없습니다
step04    4          + numerical_diff(중앙 차분), forward_diff(전진 차분)
                     ! 입력마다 두 번 계산하고, 뺄셈에서 자릿수를 잃습니다
(없음)    5          연쇄 법칙(이론뿐)
step06    6          + Variable.grad, Function.input, Square/Exp.backward(gy)
                     ~ Variable, Function, Square, Exp
                     - numerical_diff, forward_diff
                     ! 역전파를 사람이 거꾸로 된 순서로 불러야 합니다
step07    7          + creator, set_creator, 재귀로 도는 Variable.backward()
                     ~ Variable, Function
                     ! 함수 수천 개의 사슬에서 RecursionError; y.grad를 직접 넣어야 함
step08    8          + 반복문과 스택(funcs.pop())으로 도는 backward,
                       traced_backward(매 반복의 funcs를 보여 줌)
                     ~ Variable
                     ! 입력과 출력이 하나인 함수만 다룹니다
step09    9          + square()/exp(), np.ones_like로 시작, as_array,
                       ndarray만 받는 Variable(TypeError)
                     ~ Variable, Function
                     - traced_backward
                     ! 입력과 출력이 하나인 함수만 다룹니다
step10    10         + unittest 테스트(엔진은 9단계 그대로), run_tests()
step11    11         + 입력과 출력을 리스트로 주고받는 Function, Add
                     ~ Function
                     - Square, Exp, square, exp, numerical_diff, SquareTest, run_tests
                     ! 부르기 번거롭고, 역전파가 안 됩니다(AttributeError)
step12    12         + 가변 길이 인수(*inputs), 출력 하나면 그대로 돌려줌, add()
                     ~ Function, Add
                     ! 역전파가 안 됩니다(AttributeError)
step13    13         + 입력이 여러 개인 역전파, Add.backward
                     ~ Variable, Square, Add
                     ! add(x, x)의 미분값이 1입니다(정답은 2)
step14    14         + 미분값 누적(x.grad = x.grad + gx), cleargrad()
                     ~ Variable
                     ! cleargrad()를 잊으면 누적; 다이아몬드 그래프에서 틀린 미분값
step16    15-16      + generation, add_func와 seen_set, 넣을 때마다 세대 순 정렬
                     ~ Variable, Function
                     ! 넓은 그래프에서 정렬 비용; 순환 참조라 GC 전까지 메모리에 남음
step17    17         + 출력을 weakref.ref(약한 참조)로 기억
                     ~ Variable, Function
                     ! 중간 변수의 미분값이 남고, 추론 때도 그래프를 만듭니다
step18    18         + backward(retain_grad), Config, using_config, no_grad
                     ~ Variable, Function
                     ! Config가 전역이라 모든 스레드가 함께 씁니다
step22    19-22      + name/shape/ndim/size/dtype/len/repr, Mul, Neg, Sub, Div, Pow,
                       연산자 오버로드, as_variable, __array_priority__
                     ~ Variable, Function, Exp, add
                     ! 18단계와 같음; ** 의 지수는 상수만
step24    23-24      + 22단계 엔진 그대로("책의 엔진"), sphere, matyas, goldstein
                     ! 22단계와 같음
step26    25-26      + get_dot_graph: 계산 그래프를 Graphviz의 DOT 텍스트로(verbose면 모양과 dtype)
                     ! 노드 이름이 객체 주소(id)라 실행할 때마다 텍스트가 다름
step27    27         + Sin(역전파는 데이터로 np.cos), sin, taylor_sin(테일러 급수로 어림한 sin)
                     ! taylor_sin의 정확도와 그래프 크기가 threshold에 달림
step28    28         + rosenbrock(경사 하강법의 시험용 함수)
                     ! 미분값이 ndarray라 1계 미분까지만
(없음)    29         28단계 엔진으로 뉴턴 방법(2계 미분은 손으로 구한 식)
step32    30-32      + 미분값이 Variable, backward(retain_grad, create_graph),
                       역전파를 using_config("enable_backprop", create_graph) 안에서,
                       함수의 backward를 Variable 연산으로(self.inputs, Exp는 출력)
                     ~ Variable, Mul, Div, Pow, Square, Exp
                     ! 2계 미분 전에 cleargrad()를 잊으면 누적; Sin은 아직 데이터로 미분해
                       create_graph여도 2계 미분이 없음; 1계 미분에도 Variable을 만드는 비용
(없음)    33         32단계 엔진으로 뉴턴 방법(2계 미분도 역전파로)
step34    34         + Cos, cos; Sin.backward를 cos(x)로(몇 번이고 미분)
                     ~ Sin
                     ! 32단계와 같음
step35    35         + Tanh, tanh(국소 미분 1 - y²을 출력 변수로)
                     ! 미분을 거듭할수록 그래프가 빠르게 커짐
step36    36         + 35단계 엔진 그대로("제3고지 끝의 엔진"), 이중 역전파
                     ! 35단계와 같음
(없음)    37         36단계 엔진으로 텐서의 원소별 계산(엔진은 그대로)
step40    38-40      + Reshape/reshape, Transpose/transpose(축을 모두 뒤집기),
                       Variable.reshape/transpose/T/sum, Sum/sum(axis, keepdims), kept_shape,
                       BroadcastTo/broadcast_to, SumTo/sum_to, sum_to_array,
                       브로드캐스트한 사칙연산의 역전파(sum_to)
                     ~ Variable, Add, Mul, Sub, Div
                     ! transpose는 축을 고를 수 없음; 모양 오류는 NumPy의 영어 그대로;
                       모든 입력을 붙잡고 그래프를 놓아 주지 않음
step41    41         + MatMul, matmul(gx = gy @ W.T, gW = x.T @ gy)
                     ! 2차원만(배치 행렬 곱은 역전파의 모양이 어긋남); @ 연산자 없음
step42    42         + MeanSquaredError, mean_squared_error(첫 축의 길이로 나눔)
                     ! 두 입력의 모양을 확인하지 않음((100, 1)과 (100,)이면 엉뚱한 값)
step43    43         + linear_simple, sigmoid_simple, Linear/linear, Sigmoid/sigmoid
                     ! 41단계와 같음(행렬 곱은 2차원만); 매개변수를 하나씩 손으로 고침
step44    44         + Parameter, Layer(__setattr__가 Parameter의 이름을 집합에 적음,
                       params, cleargrads), Linear 층(입력 크기는 첫 호출에서, 전역 난수)
                     ~ Linear
                     ! Linear는 43단계의 함수와 이름만 같은 층입니다(함수는 linear로 부름);
                       params()의 순서가 실행마다 다를 수 있음; 층 안의 층은 모으지 않음
step45    45         + 층 안의 층까지 모으는 Layer, Model(plot은 DOT 글), TwoLayerNet,
                       MLP(층을 l0, l1, ... 속성으로)
                     ~ Layer
                     ! 같은 층을 두 속성에 두면 매개변수를 두 번 셈; 리스트 속의 층은 모으지 않음
step46    46         + Optimizer(setup, update, add_hook), SGD, MomentumSGD, AdaGrad, Adam
                       (책의 이름과 기본값)
                     ! 상태를 id(param)로 찾음; Adam의 eps 자리가 PyTorch와 다름
step47    47         + GetItem, GetItemGrad, get_item, Log, Clip, softmax_simple, Softmax,
                       softmax_cross_entropy_simple, SoftmaxCrossEntropy
                     ! softmax_simple은 점수 1000에서 nan; _simple 교차 엔트로피는 확률을
                       1e-15에서 잘라 미분값이 0이 됨; 인덱싱 연산자 x[i]는 없음
(없음)    48         나선 데이터로 학습(엔진은 그대로; get_spiral은 step49)
step49    49         + get_spiral, Dataset, Spiral, Compose, Normalize, Flatten, AsType, ToFloat
                     ! 번호는 스칼라만; get_spiral은 전역 난수의 시드를 바꿈
step50    50         + DataLoader(반복자 자신, reset, next), accuracy(Variable로 돌려줌)
                     ! 섞는 순서는 전역 np.random; 마지막 배치를 버리는 선택이 없음
step51    51         + MNIST(저장소의 파일을 읽음, 내려받지 않음), ReLU, relu
                     ! 데이터가 책과 다름(학습 8,000장, 시험 2,000장)
(없음)    52         GPU(CuPy): 시험할 GPU가 없어 구현하지 않음
step53    53         + flatten_params, save_weights, load_weights(책은 Layer의 메서드)
                     ! 불러올 때 검사하지 않음(반쯤 바뀐 채로 멈춤); 저장에 실패하면 예전
                       파일까지 지움
step54    54         + Config.train(18단계의 Config에 더함), test_mode, dropout(inverted)
                     ! Config.train이 전역이라 모든 스레드가 함께 씀
step55    55-56      + get_conv_outsize((H + 2P − K) // S + 1, 패딩은 한쪽 폭; 56단계는 이론뿐)
                     ! 인수를 검사하지 않음(커널이 패딩한 입력보다 크면 0이나 음수)
step57    57         + pair, im2col_array, col2im_array, Im2col/im2col, Col2im/col2im, conv2d_simple,
                       Conv2d/conv2d(tensordot), Deconv2d/deconv2d, Conv2DGradW, Pooling/pooling,
                       Pooling2DGrad, Pooling2DWithIndexes, AveragePooling/average_pooling,
                       축을 고르는 transpose(x, axes)(책의 x.transpose(...) 대신 함수로)
                     ~ Transpose, transpose
                     ! AveragePooling.backward가 KW, KH를 바꿔 풀어 직사각형 커널에서 IndexError;
                       최댓값 풀링의 패딩이 0(PyTorch는 -∞); 모양 오류는 NumPy의 영어 그대로
step58    58         + Conv2d 층(in_channels는 첫 입력에서), VGG16(구조만, 138,357,544개), preprocess
                     ~ Conv2d
                     ! Conv2d는 57단계의 함수 클래스와 이름만 같은 층; 학습한 가중치가 없어
                       pretrained=True는 오류; preprocess는 크기를 바꾸지 않음(책은 Pillow)
step59    59         + RNN, SinCurve, Variable.unchain/unchain_backward, SimpleRNN, train, predict_cos
                     ! RNN(10, in_size=1)이 두 번째 시각에서 ValueError(h2h를 in_size로 만듦);
                       SinCurve의 잡음이 전역 난수; predict_cos의 float(y.data)가 NumPy 2에서 TypeError
step60    60         + LSTM(Linear 8개), SeqDataLoader, BetterRNN, train(미니배치)
                     ~ train
                     ! count == seqlen이 참이 되지 않아 에포크마다 마지막 4번의 반복을 역전파하지 않음;
                       SeqDataLoader의 마지막 시각은 다음 흐름의 첫 샘플을 읽음

~ 줄은 앞 모듈에도 있는 클래스와 함수 가운데 이 모듈이 고쳐서 다시 정의한 것입니다. 고친
클래스는 앞 모듈의 클래스를 물려받아 바뀐 메서드만 적습니다(``class Variable(_previous.Variable)``).
~ 줄에 없는 이름을 다시 정의하는 까닭은 이 모듈의 다른 정의를 가리켜야 해서이고, 그때 다시 적는
코드는 앞 모듈의 것과 똑같습니다(독스트링과 ``NotImplementedError``의 문구는 빼고 비교합니다).
예를 들어 14단계의 ``Function``은 13단계를 물려받되, 14단계의 ``Variable``을 만들도록 같은
``__call__``만 다시 적습니다. 앞 단계의 함수 클래스는 ``class Square(_previous.Square, Function)``처럼
물려받아 ``forward``와 ``backward``는 그대로 쓰고, 부를 때만 이 모듈의 ``Function``을 씁니다. 그럴
까닭이 없는 것은 다시 쓰지 않고 앞 모듈에서 가져옵니다. ``tests/steps/test_redefinitions.py``가 이
표와 코드를 맞춰 봅니다.

모듈은 저마다 ``__all__``에 내보내는 이름을 적습니다. 앞 단계에 더하는 모듈은 앞 모듈의 이름을
통째로 다시 내보내고(``from .step41 import *``와 ``__all__ = [*_previous.__all__, "새 이름", ...]``),
고친 것만 다시 씁니다. 그래서 N단계 모듈 하나에서 그 단계까지의 이름을 모두 가져올 수
있습니다. 다만 ``-`` 줄의 이름은 앞 모듈이 내보내도 이 모듈은 내보내지 않습니다. 엔진을 처음부터
새로 쓰는 단계가 앞 엔진에 딸린 것을 넘기지 않으려고 뺍니다. 11단계의 ``Function``은 리스트를
주고받으므로 9단계의 ``Function``을 물려받은 ``Square``를 넘기지 않고, 6단계는 책처럼 엔진을 새로
적고 9단계는 8단계를 고치므로, 새 엔진에 딸리지 않는 4단계의 수치 미분과 8단계의 ``traced_backward``를
넘기지 않습니다(수치 미분은
10단계가 다시 가져옵니다). ``tests/steps/test_structure.py``가 ``-`` 줄과 ``__all__``을 맞춰 봅니다.

페이지에서 코드의 일부만 보여 줄 때는 각 모듈의 pymdownx.snippets 구역(``[start:이름]`` ~
``[end:이름]`` 주석)을 씁니다. 예: ``src/tinygrad_ko/steps/step08.py:backward``. 어느 페이지도 넣지
않는 구역은 두지 않습니다(``tests/site/test_snippets.py``).
"""
