"""커널 캐시와 컴파일러: 해시 이름, 크기 한도, 깨진 파일, 실패와 멈춤의 대비책, 동시에 처음 부르기."""

import os
import subprocess
import sys
import textwrap
import threading
import warnings

import numpy as np
import pytest

from tinygrad_ko import lazy
from tinygrad_ko.lazy import cache, compiler, runner

from .conftest import needs_cc

pytestmark = needs_cc
A = np.arange(12.0).reshape(3, 4)


def compute(scale=2.0):
    """작은 커널 하나(scale마다 다른 소스)를 C 백엔드로 계산합니다."""
    with lazy.using_backend("c"):
        return (lazy.Tensor(A) * scale + 1.0).numpy()


def only_source():
    x = lazy.Tensor(A) * 2.0 + 1.0
    return lazy.source(lazy.schedule(x)[0], "c")


def fake_compiler(tmp_path, body):
    """가짜 컴파일러: 파이썬 스크립트. TINYGRAD_KO_CC에 '파이썬 스크립트'로 줍니다."""
    script = tmp_path / "fake_cc.py"
    script.write_text(textwrap.dedent(body), encoding="utf-8")
    return f"{sys.executable} {script}"


def test_library_is_named_by_the_hash_of_its_source(fresh_cache):
    assert np.array_equal(compute(), A * 2.0 + 1.0)
    key = compiler.key_of(only_source())
    c_file, lib = cache.paths(key)
    assert c_file.parent == fresh_cache
    assert lib.exists() and c_file.read_text(encoding="utf-8").startswith(only_source())
    assert sorted(p.name for p in fresh_cache.iterdir()) == sorted([c_file.name, lib.name])
    # 크기 한도가 캐시의 파일로 알아보는 이름입니다
    assert all(cache.OWN_NAME.fullmatch(name) for name in (c_file.name, lib.name))


def test_second_process_loads_from_disk(fresh_cache):
    compute()
    compiler.reset()  # 이 프로세스의 캐시를 비우면 새 프로세스와 같습니다
    before = dict(compiler.counters)
    assert np.array_equal(compute(), A * 2.0 + 1.0)
    assert compiler.counters["from_disk"] == before["from_disk"] + 1
    assert compiler.counters["compiled"] == before["compiled"]


@pytest.mark.parametrize("damage", ["garbage", "other_kernel"])
def test_damaged_library_is_compiled_again(fresh_cache, damage):
    compute(3.0)
    other = cache.paths(
        compiler.key_of(lazy.source(lazy.schedule(lazy.Tensor(A) * 3.0 + 1.0)[0], "c"))
    )[1]
    compute()
    lib = cache.paths(compiler.key_of(only_source()))[1]
    compiler.reset()  # 새 프로세스처럼: 불러온 라이브러리를 닫고 나서 파일을 망가뜨립니다
    if damage == "garbage":
        lib.write_bytes(b"\x7fELF but not really a library")
    else:
        lib.write_bytes(other.read_bytes())  # 다른 커널의 라이브러리가 이 이름을 달고 있으면
    before = compiler.counters["compiled"]
    assert np.array_equal(compute(), A * 2.0 + 1.0)
    assert compiler.counters["compiled"] == before + 1


def test_a_library_whose_machine_code_changed_but_whose_hash_matches_is_not_noticed(fresh_cache):
    """55장의 한계: 불러오고 해시도 맞지만 기계어가 바뀐 파일은 알아채지 못합니다(바뀌면 이 시험과 그 문장을 함께 고칩니다)."""
    compute(3.0)
    other_key = compiler.key_of(lazy.source(lazy.schedule(lazy.Tensor(A) * 3.0 + 1.0)[0], "c"))
    compute()
    key = compiler.key_of(only_source())
    lib = cache.paths(key)[1]
    compiler.reset()
    # ×3 커널의 기계어에, 적어 둔 해시만 ×2 커널의 것으로 바꿔 ×2 커널의 이름으로 둡니다(두 해시는 길이가 같습니다).
    swapped = cache.paths(other_key)[1].read_bytes()
    assert other_key.encode() in swapped
    lib.write_bytes(swapped.replace(other_key.encode(), key.encode()))
    before = dict(compiler.counters)
    assert np.array_equal(compute(), A * 3.0 + 1.0)  # ×2를 부탁했지만 ×3의 값
    assert compiler.counters["from_disk"] == before["from_disk"] + 1
    assert compiler.counters["compiled"] == before["compiled"]


def test_compiler_commands_that_differ_only_in_quoting_get_different_names(
    fresh_cache, monkeypatch
):
    """rev58j: 명령을 인수마다 빈칸으로 이어 해시하면 `cc "-DA= -DB"`(인수 하나)와 `cc -DA= -DB`(인수 둘)가
    같은 이름이 되어, 다른 명령이 만든 라이브러리를 조용히 불러올 수 있었습니다."""
    cc = compiler.command()[0]
    names = []
    for given in (f'{cc} "-DA= -DB"', f"{cc} -DA= -DB"):
        monkeypatch.setenv("TINYGRAD_KO_CC", given)
        compiler.reset()
        names.append(compiler.key_of(only_source()))
    assert names[0] != names[1]


def test_a_compiler_given_by_bare_name_is_hashed_with_its_path(fresh_cache, tmp_path, monkeypatch):
    """rev60r: TINYGRAD_KO_CC=gcc처럼 이름만 주면 경로 없이 해시해, PATH에서 찾은 다른 프로그램(버전 줄이 같은)이
    만든 라이브러리를 조용히 불러올 수 있었습니다. 55장은 이름에 경로까지 든다고 말합니다."""
    names = []
    for folder in ("one", "two"):
        bin_dir = tmp_path / folder
        bin_dir.mkdir()
        fake = bin_dir / "mycc"
        fake.write_text("#!/bin/sh\necho 'mycc version 1.0' >&2\n", encoding="utf-8")
        fake.chmod(0o755)
        monkeypatch.setenv("PATH", f"{bin_dir}{os.pathsep}{os.environ['PATH']}")
        monkeypatch.setenv("TINYGRAD_KO_CC", "mycc")
        compiler.reset()
        names.append(compiler.key_of(only_source()))
    assert names[0] != names[1]


def test_cache_is_bounded_and_evicts_the_least_recently_used(fresh_cache, monkeypatch):
    compute(2.0)
    one_kernel = sum(p.stat().st_size for p in fresh_cache.iterdir())
    monkeypatch.setenv("TINYGRAD_KO_CACHE_BYTES", str(int(one_kernel * 2.5)))
    first = {p.name.split(".")[0] for p in fresh_cache.iterdir()}
    compute(3.0)
    os.utime(
        next(fresh_cache.glob(f"{next(iter(first))}.*")), (1, 1)
    )  # 첫 커널을 오래전에 쓴 것으로
    compute(4.0)
    keys = {p.name.split(".")[0] for p in fresh_cache.iterdir()}
    assert len(keys) == 2 and not keys & first
    assert sum(p.stat().st_size for p in fresh_cache.iterdir()) <= one_kernel * 2.5


def test_eviction_removes_only_the_files_the_cache_wrote(fresh_cache, tmp_path, monkeypatch):
    """TINYGRAD_KO_CACHE가 사용자의 파일이 있는 폴더를 가리켜도, 한도는 캐시가 만든 파일만 지웁니다.

    하위 폴더나 캐시의 이름을 단 폴더·링크도 건드리지 않고, 그것들 때문에 C 백엔드가 꺼지지도 않습니다.
    """
    compute(2.0)
    old_key = compiler.key_of(only_source())
    (fresh_cache / f"{old_key}.log").write_text("컴파일러의 보고", encoding="utf-8")
    old_files = sorted(fresh_cache.iterdir())
    foreign = {
        "my_notes.txt": "사용자의 메모",
        "model.c": "int main(void) { return 0; }",
        f"data{cache.SUFFIX}": "사용자의 라이브러리",
        f"{old_key}.c.bak": "사용자가 떠 둔 사본",
        f"{'0' * 32}.txt": "해시처럼 생긴 이름의 사용자 파일",
        ".hidden_notes": "숨긴 파일",
        f".{'1' * 32}{cache.SUFFIX}.123.abcd1234.tmp": "다른 프로세스가 쓰는 중인 임시 파일",
    }
    for name, text in foreign.items():
        (fresh_cache / name).write_text(text, encoding="utf-8")
    # 둘째는 캐시의 이름을 단 폴더입니다
    folders = [fresh_cache / "subdir", fresh_cache / f"{'a' * 32}.c"]
    for folder in folders:
        folder.mkdir()
        (folder / "inside.txt").write_text("폴더 안의 파일", encoding="utf-8")
    outside = tmp_path / "outside.bin"
    outside.write_text("링크가 가리키는 파일", encoding="utf-8")
    link = fresh_cache / f"{'f' * 32}{cache.SUFFIX}"
    link.symlink_to(outside)
    for path in [*old_files, *(fresh_cache / name for name in foreign), *folders, link]:
        os.utime(path, (1, 1), follow_symlinks=False)  # 모두 가장 오래된 것으로
    # 1바이트 한도: 지워도 되는 것은 모두 지웁니다
    monkeypatch.setenv("TINYGRAD_KO_CACHE_BYTES", "1")
    compiled = compiler.counters["compiled"]
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # 경고(C 백엔드가 꺼짐)가 나면 실패합니다
        assert np.array_equal(compute(3.0), A * 3.0 + 1.0)
    assert compiler.counters["compiled"] == compiled + 1
    assert not [path for path in old_files if path.exists()]  # 캐시의 오래된 커널은 지웠습니다
    for name, text in foreign.items():
        assert (fresh_cache / name).read_text(encoding="utf-8") == text
    for folder in folders:
        assert (folder / "inside.txt").read_text(encoding="utf-8") == "폴더 안의 파일"
    assert link.is_symlink() and outside.exists()


def test_files_the_cache_did_not_write_do_not_count_toward_the_limit(fresh_cache, monkeypatch):
    compute(2.0)
    one_kernel = sum(p.stat().st_size for p in fresh_cache.iterdir())
    monkeypatch.setenv("TINYGRAD_KO_CACHE_BYTES", str(int(one_kernel * 2.5)))
    big = fresh_cache / "experiment_results.bin"
    with open(big, "wb") as file:
        file.truncate(one_kernel * 10)  # 한도보다 큰 사용자의 파일
    compute(3.0)
    assert big.stat().st_size == one_kernel * 10
    keys = {p.name.split(".")[0] for p in fresh_cache.iterdir() if p != big}
    assert len(keys) == 2  # 두 커널 모두 한도 안이라 남습니다


def test_compiler_failure_warns_in_korean_and_falls_back_to_numpy(
    fresh_cache, tmp_path, monkeypatch
):
    cc = fake_compiler(
        tmp_path, 'import sys\nprint("가짜 컴파일러: 문법 오류 42", file=sys.stderr)\nsys.exit(1)\n'
    )
    monkeypatch.setenv("TINYGRAD_KO_CC", cc)
    compiler.reset()
    numpy_runs = runner.counters["numpy"]
    with pytest.warns(lazy.CompilerWarning, match="가짜 컴파일러: 문법 오류 42") as record:
        assert np.array_equal(compute(), A * 2.0 + 1.0)
    assert "NumPy 백엔드로" in str(record[0].message)
    assert runner.counters["numpy"] == numpy_runs + 1
    assert lazy.backend() == "numpy"  # 이 프로세스에서는 다시 시도하지 않습니다
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # 두 번째 커널은 경고 없이 NumPy로
        assert np.array_equal(compute(5.0), A * 5.0 + 1.0)


def test_choosing_c_again_retries_after_a_failure(fresh_cache, tmp_path, monkeypatch):
    """55장의 문장: 실패한 뒤에는 lazy.set_backend("c")로 다시 고르기 전까지 C를 시도하지 않습니다."""
    cc = fake_compiler(tmp_path, "import sys\nsys.exit(1)\n")
    monkeypatch.setenv("TINYGRAD_KO_CC", cc)
    compiler.reset()
    with pytest.warns(lazy.CompilerWarning):
        compute()
    monkeypatch.delenv("TINYGRAD_KO_CC")  # 이제 진짜 컴파일러가 있어도
    compiled = compiler.counters["compiled"]
    compute(5.0)
    assert compiler.counters["compiled"] == compiled and lazy.backend() == "numpy"
    try:
        lazy.set_backend("c")  # 다시 고르면 실패 기록을 지우고 다시 시도합니다
        assert lazy.backend() == "c"
        assert np.array_equal(compute(5.0), A * 5.0 + 1.0)
        assert compiler.counters["compiled"] == compiled + 1
    finally:
        lazy.set_backend(None)


def test_compiler_that_hangs_is_stopped(fresh_cache, tmp_path, monkeypatch):
    cc = fake_compiler(tmp_path, "import time\ntime.sleep(30)\n")
    monkeypatch.setenv("TINYGRAD_KO_CC", cc)
    monkeypatch.setenv("TINYGRAD_KO_CC_TIMEOUT", "0.5")
    compiler.reset()
    with pytest.warns(lazy.CompilerWarning, match="0.5초 안에 끝나지 않아"):
        assert np.array_equal(compute(), A * 2.0 + 1.0)
    assert not [p for p in fresh_cache.iterdir() if p.suffix == cache.SUFFIX]


@pytest.mark.parametrize("given", ["TINYGRAD_KO_CC", "PATH"])
def test_compiler_that_hangs_waits_one_time_limit(fresh_cache, tmp_path, monkeypatch, given):
    """멈추는 컴파일러는 한 번만 기다립니다. 전에는 물음(-v, 값 검사)마다 시간 한도를 기다려 한도의 2~4배가 걸렸습니다."""
    log = tmp_path / "started.txt"
    body = f"import time\nwith open({str(log)!r}, 'a') as f:\n    f.write('x')\ntime.sleep(30)\n"
    if given == "PATH":  # PATH의 cc가 멈출 때(실행 파일 하나만 있는 PATH)
        cc = tmp_path / "bin" / "cc"
        cc.parent.mkdir()
        cc.write_text(f"#!{sys.executable}\n{body}", encoding="utf-8")
        cc.chmod(0o755)
        monkeypatch.delenv("TINYGRAD_KO_CC", raising=False)
        monkeypatch.setenv("PATH", str(cc.parent))
    else:
        monkeypatch.setenv("TINYGRAD_KO_CC", fake_compiler(tmp_path, body))
    monkeypatch.setenv("TINYGRAD_KO_CC_TIMEOUT", "0.5")
    compiler.reset()
    with pytest.warns(lazy.CompilerWarning, match="0.5초 안에 끝나지 않아"):
        assert np.array_equal(compute(), A * 2.0 + 1.0)
    assert log.read_text() == "x"
    compiler.reset()


def test_cache_folder_others_can_write_is_refused(fresh_cache):
    fresh_cache.mkdir(mode=0o700)
    os.chmod(fresh_cache, 0o777)
    if os.name != "posix":
        pytest.skip("권한 검사는 POSIX에서만 합니다")
    with pytest.warns(lazy.CompilerWarning, match="다른 사용자도 쓸 수 있거나"):
        assert np.array_equal(compute(), A * 2.0 + 1.0)
    assert list(fresh_cache.iterdir()) == []


def test_no_compiler_means_numpy(monkeypatch, tmp_path):
    monkeypatch.delenv("TINYGRAD_KO_CC", raising=False)
    monkeypatch.setenv("PATH", str(tmp_path))  # 컴파일러가 하나도 없는 PATH
    compiler.reset()
    try:
        assert lazy.backend() == "numpy"
        with pytest.raises(RuntimeError, match="apt-get install gcc"):
            lazy.set_backend("c")
        assert np.array_equal((lazy.Tensor(A) * 2.0).numpy(), A * 2.0)
    finally:
        compiler.reset()


def test_threads_calling_a_new_kernel_at_once_compile_it_once(fresh_cache):
    results, errors = [], []

    def work():
        try:
            results.append(compute(7.0))
        except Exception as error:  # noqa: BLE001 - 스레드의 예외를 본 스레드로 옮깁니다
            errors.append(error)

    before = compiler.counters["compiled"]
    threads = [threading.Thread(target=work) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors
    assert all(np.array_equal(r, A * 7.0 + 1.0) for r in results) and len(results) == 4
    assert compiler.counters["compiled"] == before + 1


def test_two_processes_compiling_the_same_kernel_at_once(fresh_cache):
    """두 프로세스가 같은 새 커널을 동시에 처음 부릅니다: 둘 다 맞는 값을 내고, 임시 파일이 남지 않습니다."""
    program = textwrap.dedent(
        """
        import numpy as np
        from tinygrad_ko import lazy
        a = np.arange(12.0).reshape(3, 4)
        with lazy.using_backend("c"):
            y = (lazy.Tensor(a) * 9.0 + 1.0).numpy()
        assert np.array_equal(y, a * 9.0 + 1.0)
        print("ok")
        """
    )
    env = {**os.environ, "TINYGRAD_KO_CACHE": str(fresh_cache)}
    procs = [
        subprocess.Popen(
            [sys.executable, "-c", program], env=env, stdout=subprocess.PIPE, text=True
        )
        for _ in range(2)
    ]
    outputs = [p.communicate(timeout=120)[0] for p in procs]
    assert [p.returncode for p in procs] == [0, 0] and outputs == ["ok\n", "ok\n"]
    names = [p.name for p in fresh_cache.iterdir()]
    assert len(names) == 2 and not [n for n in names if n.startswith(".")]


def test_build_compiles_with_chosen_options_and_keeps_the_report(fresh_cache):
    """build: 옵션마다 다른 캐시 이름, 컴파일러의 메시지(벡터화 보고)를 돌려주고, 값이 맞습니다."""
    text = only_source()
    report = ("-fopt-info-vec-all",) if compiler.is_gcc() else ()
    run, message = compiler.build(text, (*compiler.OPTIONS, *report))
    out, x = np.empty_like(A), A.copy()
    run(out, x)
    assert np.array_equal(out, A * 2.0 + 1.0)
    if report:
        assert "vectorized" in message
        (log,) = fresh_cache.glob("*.log")
        assert cache.OWN_NAME.fullmatch(log.name)  # 보고도 캐시의 파일로 세고 지웁니다
    run_o1, _ = compiler.build(text, ("-O1",))
    out_o1 = np.empty_like(A)
    run_o1(out_o1, x)
    assert np.array_equal(out_o1, out)
    keys = {p.name.split(".")[0] for p in fresh_cache.iterdir()}
    assert len(keys) == 2  # 같은 소스라도 옵션이 다르면 다른 커널입니다
    with pytest.raises(ValueError):
        run(out, x[:, ::2])  # C 순서가 아닌 배열


def test_build_failure_does_not_turn_off_the_c_backend(fresh_cache):
    with pytest.raises(RuntimeError) as error:
        compiler.build(only_source(), ("-fno-such-option-for-tinygrad-ko",))
    message = str(error.value)
    assert "C 컴파일러가 실패했습니다" in message and "NumPy 백엔드" not in message
    assert compiler.available()
    assert np.array_equal(compute(), A * 2.0 + 1.0)


def test_is_gcc_asks_the_compiler(fresh_cache, tmp_path, monkeypatch):
    """gcc만 아는 옵션(-fopt-info-vec)을 쓸지: 컴파일러의 -v가 "gcc version"을 말할 때만 참."""
    say = 'import sys\nsys.stderr.write("{}")\n'
    monkeypatch.setenv("TINYGRAD_KO_CC", fake_compiler(tmp_path, say.format("clang version 17")))
    compiler.reset()
    assert not compiler.is_gcc()
    monkeypatch.setenv("TINYGRAD_KO_CC", fake_compiler(tmp_path, say.format("gcc version 12.2.0")))
    compiler.reset()
    assert compiler.is_gcc()
    monkeypatch.setenv("PATH", str(tmp_path))
    monkeypatch.delenv("TINYGRAD_KO_CC")
    compiler.reset()
    assert not compiler.is_gcc()
    with pytest.raises(RuntimeError, match="build를 쓸 수 없습니다"):
        compiler.build("void kernel(void) {}")


def test_called_functions_reads_the_assembly(fresh_cache):
    """called_functions: 커널이 부르는 함수(56장: 스칼라 expf인지 벡터판인지). 원소별 사칙연산은 아무것도 부르지 않습니다."""
    with lazy.using_backend("c"):
        exp_source = lazy.source(lazy.schedule(lazy.Tensor(A).exp())[0])
    assert compiler.called_functions(only_source()) == []
    assert compiler.called_functions(exp_source) == ["exp"]  # float64: libm의 exp
    with pytest.raises(RuntimeError) as error:
        compiler.called_functions(exp_source, ("-fno-such-option-for-tinygrad-ko",))
    assert "C 컴파일러가 실패했습니다" in str(error.value)
    assert not list(fresh_cache.glob("*"))  # 어셈블리는 캐시에 남기지 않습니다


def test_assembly_returns_the_compilers_assembly_text(fresh_cache):
    """assembly: 56장이 세는 명령(비교, 조건 분기)이 들어 있는 어셈블리 글. 커널 함수의 이름이 보이고 캐시에 남지 않습니다."""
    text = compiler.assembly(only_source())
    assert "kernel" in text and "\n" in text
    assert not list(fresh_cache.glob("*"))
    with pytest.raises(RuntimeError, match="C 컴파일러가 실패했습니다"):
        compiler.assembly(only_source(), ("-fno-such-option-for-tinygrad-ko",))


def test_eviction_age_is_the_last_compile_or_disk_load(fresh_cache):
    """55장의 문장: "오래"는 마지막으로 컴파일했거나 파일에서 불러온 때입니다. 프로세스 안에서 다시 쓰면 그대로입니다."""
    compute(6.0)
    (library,) = fresh_cache.glob(f"*{cache.SUFFIX}")
    os.utime(library, (1, 1))
    compute(6.0)  # 이 프로세스가 불러 둔 커널: 파일을 건드리지 않습니다
    assert library.stat().st_mtime == 1
    compiler.reset()  # 새 프로세스처럼: 다음 부르기는 파일에서 불러옵니다
    compute(6.0)
    assert library.stat().st_mtime > 1


def test_gcc_only_options_are_given_to_gcc_only(fresh_cache, tmp_path, monkeypatch):
    """gcc만 아는 옵션(GCC_OPTIONS)은 gcc에만 줍니다. 다른 컴파일러(clang 등)는 모르는 옵션에서 실패합니다."""
    log = tmp_path / "args.txt"
    body = f"""
        import sys
        if sys.argv[1:] == ["-v"]:
            sys.stderr.write("{{}} version 1.0")
            sys.exit(0)
        if "-c" in sys.argv:  # 옵션은 컴파일 단계에 줍니다(링크에는 -shared만)
            open({str(log)!r}, "w").write(" ".join(sys.argv[1:]))
        sys.exit(1)
    """
    for name, wanted in (("clang", False), ("gcc", True)):
        monkeypatch.setenv("TINYGRAD_KO_CC", fake_compiler(tmp_path, body.format(name)))
        compiler.reset()
        assert compiler.default_options() == (
            (*compiler.OPTIONS, *compiler.GCC_OPTIONS) if wanted else compiler.OPTIONS
        )
        with pytest.warns(compiler.CompilerWarning):
            compute()
        given = log.read_text().split()
        assert all(option in given for option in compiler.OPTIONS)
        assert [option in given for option in compiler.GCC_OPTIONS] == [wanted] * len(
            compiler.GCC_OPTIONS
        )


def test_a_fast_math_kernel_does_not_flush_subnormals_in_the_whole_process(tmp_path):
    """-ffast-math로 컴파일한 커널을 불러와도(56장의 실험) 그 뒤 프로세스의 계산은 그대로입니다.

    gcc 12는 -ffast-math를 받은 링크에 crtfastmath.o를 붙이고, 그 라이브러리를 불러온 스레드는 비정규수를 0으로
    바꿉니다(FTZ/DAZ): NumPy의 `np.float64(5e-324) * 1.0`이 0.0이 됩니다. 새 프로세스에서 봅니다.
    """
    probe = textwrap.dedent(
        """
        import numpy as np
        from tinygrad_ko.lazy import compiler
        run, _ = compiler.build("void kernel(void) {}", (*compiler.OPTIONS, "-ffast-math"))
        print(np.float64(5e-324) * 1.0, np.float32(1e-45) * np.float32(1.0))
        """
    )
    env = {**os.environ, "TINYGRAD_KO_CACHE": str(tmp_path / "kernels")}
    done = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, env=env, check=True
    )
    assert done.stdout.split() == ["5e-324", "1e-45"]


def test_cache_name_changes_when_the_cpu_changes(fresh_cache, monkeypatch):
    """-march=native의 라이브러리는 그 CPU의 명령을 씁니다. 캐시 폴더를 여러 기계가 함께 쓰면(네트워크 홈
    폴더) 다른 CPU에서 만든 라이브러리를 불러와 SIGILL로 죽을 수 있으므로, 이름에 CPU가 들어가야 합니다."""
    source = only_source()
    monkeypatch.setattr(compiler, "cpu_identity", lambda: "x86_64 | CPU A | sse2 avx2")
    first = compiler.key_of(source)
    assert compiler.key_of(source) == first  # 같은 CPU면 같은 이름
    monkeypatch.setattr(compiler, "cpu_identity", lambda: "x86_64 | CPU B | sse2 avx512f")
    assert compiler.key_of(source) != first


def test_cpu_identity_is_cheap_and_names_this_machine():
    identity = compiler.cpu_identity()
    assert isinstance(identity, str) and identity
    assert __import__("platform").machine() in identity
    assert compiler.cpu_identity() is identity  # 프로세스마다 한 번만 읽습니다
