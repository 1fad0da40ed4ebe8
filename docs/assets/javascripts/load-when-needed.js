// 수식과 mermaid 그림을 그리는 라이브러리는 크므로(MathJax 2.2 MB, mermaid 3.5 MB) 그것이 있는 페이지에서만
// 불러옵니다. 이 스크립트는 본문 뒤에 오므로 페이지의 내용을 이미 볼 수 있습니다.
//
// document.write로 넣은 스크립트는 이 자리에서 곧바로 읽히고 실행됩니다(파서가 기다립니다). 그래서
// Material이 페이지를 준비할 때 전역 `mermaid`가 이미 있어 CDN에서 받으려 하지 않습니다. 비동기로 넣으면
// 그 순서가 보장되지 않습니다. 주소는 이 파일의 주소를 기준으로 정하므로 file:// 로 연 사이트에서도 맞습니다.
(() => {
  const here = document.currentScript.src;
  const load = (path) => {
    document.write(`<script src="${new URL(path, here).href}"></scr` + "ipt>");
  };
  // 노트북 페이지(mkdocs-jupyter)의 수식은 $ 로 남아 있어 찾기 어려우므로 늘 불러옵니다.
  if (document.querySelector(".arithmatex, .jupyter-wrapper")) {
    load("../vendor/mathjax/tex-svg-full.js");
  }
  if (document.querySelector(".mermaid")) {
    load("../vendor/mermaid/mermaid.min.js");
    load("mermaid-natural-size.js"); // 그림을 줄이지 않고 제 크기로(설명은 그 파일에)
  }
})();
