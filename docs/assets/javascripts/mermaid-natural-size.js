// mermaid는 그림을 글의 폭에 맞춰 줄여 그립니다(<svg width="100%" style="max-width: 1100px">). 390 px 폰에서는
// 넓은 그림의 글자가 2~7 px이 되어 읽을 수 없고, 40장의 im2col 그림은 데스크톱에서도 그렇습니다. 그래서 그림을
// 제 크기로(글자 14~16 px) 그리고, 글의 폭보다 넓으면 그림 상자 안에서 가로로 스크롤하게 합니다(extra.css 의
// .mermaid). 끌어서 움직이고 확대하는 라이브러리(pan/zoom)는 쓰지 않습니다. 폰에서 페이지를 넘기는 손짓을
// 가로채고, 처음에는 여전히 줄어든 그림을 보여 주기 때문입니다. 브라우저의 확대(핀치 줌)는 그대로 됩니다.
//
// Material은 mermaid.render(id, 글)로 SVG 글을 받아 페이지에 넣습니다. 그 SVG의 폭을 100%에서 제 폭으로
// 바꿉니다. 설정(useMaxWidth)으로 하지 않는 까닭: xychart는 mermaid.initialize 의 그 설정을 따르지 않습니다.
// 이 파일은 mermaid.min.js 바로 뒤에 읽힙니다(load-when-needed.js).
(() => {
  const naturalSize = (svg) =>
    svg.replace(/^<svg\b[^>]*>/, (tag) => {
      const width = tag.match(/style="[^"]*max-width:\s*([\d.]+)px;?/);
      if (!width || !/\swidth="100%"/.test(tag)) return tag;
      return tag
        .replace(/\swidth="100%"/, ` width="${width[1]}"`)
        .replace(/max-width:\s*[\d.]+px;?\s*/, "");
    });
  const render = mermaid.render.bind(mermaid);
  mermaid.render = async (...args) => {
    const result = await render(...args);
    return { ...result, svg: naturalSize(result.svg) };
  };
})();
