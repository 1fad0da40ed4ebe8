"""mkdocs 훅: 노트북 페이지의 한국어 제목에도 마크다운 페이지와 같은 앵커를 붙입니다.

mkdocs-jupyter 0.26.3 은 노트북 제목의 id를 ASCII 글자만 남기는 slugify로 만들므로, 한국어 제목은
id가 빈 문자열이 되고(`<h2 id="">`), 오른쪽 목차는 파이썬 Markdown의 기본 slugify로 `#_1` 같은
다른 앵커를 가리킵니다. 여기서는 두 곳 모두 mkdocs.yml 의 `toc`와 같은 `pymdownx.slugs.slugify`
(유니코드, 소문자)를 쓰게 바꿉니다. 그래서 `## 가장 좋은 $h$`는 어디서나 `#가장-좋은-h`가 됩니다.

mkdocs-jupyter의 내부 함수를 바꿔 끼우므로, 그 함수가 없어졌으면 조용히 넘어가지 않고 빌드를
멈춥니다(버전을 올린 뒤 이 훅이 아직 필요한지 확인하라는 뜻입니다).
"""

from __future__ import annotations

import markdown
from markdown.extensions.toc import TocExtension
from mkdocs.exceptions import PluginError
from pymdownx.slugs import slugify

_slugify = slugify(case="lower")


def _heading_id(text: str) -> str:
    return _slugify(text, "-")


def _add_anchor(html: str, anchor_link_text: str = "¶") -> str:
    """제목 HTML에 유니코드 id와 앵커 링크(¶)를 붙입니다. mkdocs-jupyter의 같은 함수를 대신합니다."""
    from xml.etree.ElementTree import Element

    from defusedxml import ElementTree
    from nbconvert.filters.strings import html2text

    try:
        heading = ElementTree.fromstring(html)
    except Exception:
        return html  # 해석할 수 없는 제목은 원래 함수처럼 그대로 둡니다.
    anchor = _heading_id(html2text(heading))
    heading.set("id", anchor)
    link = Element("a", {"class": "anchor-link", "href": "#" + anchor})
    link.text = anchor_link_text
    heading.append(link)
    return ElementTree.tostring(heading).decode("utf-8", "replace")


def _markdown_toc(markdown_source: str, toc_depth: int) -> list:
    """노트북의 목차를 본문과 같은 slugify로 만듭니다."""
    md = markdown.Markdown(extensions=[TocExtension(toc_depth=toc_depth, slugify=_slugify)])
    md.convert(markdown_source)
    return md.toc_tokens


def on_config(config):
    import mkdocs_jupyter.convert as convert
    import mkdocs_jupyter.plugin as plugin

    for module, name in ((convert, "add_anchor_lower_id"), (plugin, "_get_markdown_toc")):
        if not callable(getattr(module, name, None)):
            raise PluginError(
                f"{module.__name__}.{name} 이(가) 없습니다. mkdocs-jupyter 버전이 바뀐 것 같습니다. "
                f"scripts/mkdocs_hooks.py 가 아직 필요한지 확인해 주세요."
            )
    convert.add_anchor_lower_id = _add_anchor
    plugin._get_markdown_toc = _markdown_toc
    return config
