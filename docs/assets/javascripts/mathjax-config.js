// MathJax 3 설정. 이 파일은 MathJax(assets/vendor/mathjax/tex-svg-full.js)보다 먼저 불러옵니다.
// 두 스크립트 모두 본문 뒤에 오므로, 여기서는 페이지의 내용을 이미 볼 수 있습니다.
//
// - Markdown 페이지: pymdownx.arithmatex(generic)가 수식을 \( \) 와 \[ \] 로 감싸 둡니다.
//   $ 는 구분자로 쓰지 않습니다: 본문의 달러 기호가 수식으로 바뀌는 일을 막습니다.
// - 노트북 페이지(mkdocs-jupyter): 마크다운 셀의 수식이 Jupyter에서처럼 $ 와 $$ 로 남습니다.
//   이 페이지에서만 $ 구분자를 켭니다.
// pre, code 안의 글자는 MathJax가 건너뜁니다.
(() => {
  const isNotebookPage = document.querySelector(".jupyter-wrapper") !== null;
  const inlineMath = [["\\(", "\\)"]];
  const displayMath = [["\\[", "\\]"]];
  if (isNotebookPage) {
    inlineMath.push(["$", "$"]);
    displayMath.push(["$$", "$$"]);
  }

  window.MathJax = {
    tex: {
      inlineMath,
      displayMath,
      processEscapes: true,
      processEnvironments: true,
    },
    svg: {
      // SVG 출력은 글꼴 파일을 받지 않으므로 file:// 로 연 사이트에서도 그려집니다.
      fontCache: "global",
    },
    options: {
      // 오른쪽 클릭 메뉴는 접근성 모듈을 CDN에서 받으려 할 수 있으므로 끕니다.
      enableMenu: false,
    },
  };
})();
