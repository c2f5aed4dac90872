"""The kinds of cause a price move has, and the words that name each in English and Chinese.

A sentence of a story is read for these words; the kind it names is what the answer states,
in the answer's own language (`cause.kind.<id>` in the phrasebook), so a Chinese headline
explains an English answer without being quoted untranslated, and the reverse.

`direction` is the way the kind moves a price when it is news: -1 (a guidance cut, a
downgrade), +1 (a beat, an upgrade), 0 (either way: a policy, a tariff, sales figures). A
kind is a cause of a move only when it goes the move's way or either way; a kind that goes
the other way is evidence against the move (see `causes`).
"""

from __future__ import annotations

import dataclasses
import re
from typing import Literal

Direction = Literal[-1, 0, 1]


@dataclasses.dataclass(frozen=True)
class CauseKind:
    id: str
    direction: Direction
    words: re.Pattern

    def named_in(self, text: str) -> bool:
        return self.words.search(text) is not None


def _kind(kind_id: str, direction: Direction, en: str, zh: str) -> CauseKind:
    return CauseKind(kind_id, direction, re.compile(rf"{en}|{zh}", re.I))


# Up to the end of a clause; a decimal point ("$23.30 billion") does not end one.
_GAP = r"(?:[^.;:]|\.(?=\d))"
_OUTLOOK = r"(?:guidance|outlook|forecasts?|projections?|full[- ]year\s+(?:view|target)s?)"
_SHORT = r"(?:below|short\s+of|fell\s+short|falls\s+short|disappoint\w*|underwhelm\w*|weak|weaker|soft|softer" \
         r"|cut|cuts|lowered|lowers|trimmed|trims|misses|missed|miss|tepid|cautious|bleak|gloomy)"
_ABOVE = r"(?:raised|raises|lifts|lifted|boost\w*|above|ahead\s+of|upbeat|strong|stronger|tops|topped|beats|beat)"
_ESTIMATES = r"(?:estimates?|expectations?|forecasts?|consensus|views|the\s+street|(?:analysts\s+)?expected)"

# In the order they are tried: the more specific kinds first (a guidance cut before a miss).
KINDS: tuple[CauseKind, ...] = (
    _kind("guidance_cut", -1,
          rf"\b{_OUTLOOK}\b{_GAP}{{0,60}}\b{_SHORT}\b|\b{_SHORT}\b{_GAP}{{0,40}}\b{_OUTLOOK}\b"
          rf"|\bguided\b[^.;]{{0,80}}\b(?:below|short\s+of|under)\b",
          r"(?:指引|展望|预期|预测|预告)[^。；，]{0,12}(?:下调|不及|低于|疲软|偏弱|谨慎|令人失望)|下调[^。；]{0,8}(?:指引|预期|目标)"
          r"|业绩预告[^。；]{0,10}(?:下滑|预减|预亏|亏损)"),
    _kind("guidance_raise", 1,
          rf"\b(?:raised|raises|lifts|lifted|hikes?|hiked|boosts?|boosted)\b{_GAP}{{0,30}}\b{_OUTLOOK}\b"
          rf"|\b{_OUTLOOK}\b{_GAP}{{0,80}}\b(?:above|tops?|topped|beats?|ahead\s+of)\b",
          r"上调[^。；]{0,8}(?:指引|预期|全年目标)|(?:指引|展望)[^。；，]{0,10}(?:上调|超预期|高于预期|乐观)"
          r"|业绩预告[^。；]{0,10}(?:预增|大增|扭亏)"),
    _kind("results_miss", -1,
          rf"\b(?:miss|misses|missed|below|short\s+of|fell\s+short|falls\s+short|trails?|lag(?:s|ged)?)\b{_GAP}{{0,50}}"
          rf"\b{_ESTIMATES}\b|\b(?:profit|earnings|revenue|sales|results)\b{_GAP}{{0,30}}\b(?:disappoint\w*|slump\w*"
          rf"|plunge\w*|tumble\w*|drops?|dropped|falls?|fell|declines?|declined)\b",
          r"(?:业绩|利润|营收|收入|财报|净利)[^。；]{0,16}(?:不及预期|低于预期|逊于预期|未达预期|下滑|下降|亏损|大降|预亏)"
          r"|(?:不及|低于|逊于|未达)(?:市场|分析师)?预期"),
    _kind("results_beat", 1,
          rf"\b(?:beat|beats|top|tops|topped|exceed|exceeds|exceeded|surpass\w*|above|ahead\s+of)\b{_GAP}{{0,50}}"
          rf"\b{_ESTIMATES}\b|\b(?:profit|earnings|revenue|sales|results)\b{_GAP}{{0,30}}\b(?:beat|beats|tops?"
          rf"|topped|jumps?|jumped|surges?|surged|soars?|soared|record)\b",
          r"(?:业绩|利润|营收|收入|财报|净利)[^。；]{0,16}(?:超预期|超出预期|好于预期|高于预期|大增|创新高)"
          r"|(?:超|超出|好于|高于)(?:市场|分析师)?预期"),
    # Results, with no word of how they compared: counted with the beat or miss the move went with.
    _kind("results", 0,
          r"\b(?:results|earnings|quarterly\s+report|(?:first|second|third|fourth)-quarter\s+(?:report|numbers))\b",
          r"财报|业绩|季报|年报|中报"),
    _kind("downgrade", -1,
          r"\bdowngrade[sd]?\b|\b(?:cut|cuts|lowered|lowers)\b(?:[^.;]|\.(?=\d)){0,20}\b(?:to\s+(?:sell|hold|neutral|underweight"
          r"|underperform|market\s+perform)|(?:price\s+)?targets?)\b",
          r"下调[^。；]{0,6}(?:评级|目标价)|评级[^。；]{0,4}下调|降级"),
    _kind("upgrade", 1,
          r"\bupgrade[sd]?\b|\b(?:raised|raises|lifts|lifted)\b(?:[^.;]|\.(?=\d)){0,20}\b(?:to\s+(?:buy|outperform|overweight)"
          r"|(?:price\s+)?targets?)\b",
          r"上调[^。；]{0,6}(?:评级|目标价)|评级[^。；]{0,4}上调|升级至"),
    _kind("tariffs", 0,
          r"\btariffs?\b|\blevy\b|\blevies\b|\bexport\s+(?:curbs?|controls?|restrictions?|bans?|caps?|limits?)\b"
          r"|\b(?:cap|caps|capping|capped|curb|curbs|curbing|limit|limiting|restrict\w*|ban|banning)\b(?:[^.;]){0,30}"
          r"\bexports?\b|\bexport\s+(?:worries|concerns|fears|limits)\b|\btrade\s+(?:war|tensions?"
          r"|curbs?|restrictions?)\b|\bsanctions?\b|\bentity\s+list\b",
          r"关税|出口管制|出口限制|贸易战|贸易摩擦|制裁|实体清单"),
    _kind("tax", 0,
          r"\b(?:consumption|sales|windfall|excise|digital\s+services|minimum)\s+tax\b|\btax\s+(?:overhaul|reform|hike"
          r"|increase|change|rules?|bill|draft|probe)\b",
          r"消费税|增值税|税改|税收政策|征税|加税|税率"),
    _kind("legal", 0,
          r"\bantitrust\b|\blawsuits?\b|\bsued\b|\bsues\b|\bcourt\b|\bruling\b|\bprobe\b|\binvestigation\b|\bsubpoena"
          r"|\bfined?\b|\bpenalt(?:y|ies)\b|\bsettlement\b|\bregulators?\b",
          r"反垄断|诉讼|起诉|立案|调查|罚款|处罚|判决|监管问询|问询函"),
    _kind("policy", 0,
          r"\b(?:government|ministry|regulator|beijing|washington|brussels|white\s+house|policy|policies|regulations?"
          r"|rules?|draft|crackdown|ban|bans|banned|subsid(?:y|ies)|curbs?)\b",
          r"政策|新规|征求意见稿|征求意见|监管|财政部|发改委|国务院|证监会|工信部|商务部|集采|限令|禁令|整治|补贴政策"),
    _kind("stimulus", 1,
          r"\bstimulus\b|\bsupport\s+measures\b|\brate\s+cuts?\b|\bcuts?\s+(?:interest\s+)?rates\b|\beasing\b",
          r"刺激|稳增长|降准|降息|宽松|提振措施|一揽子"),
    _kind("macro", 0,
          r"\binflation\b|\bcpi\b|\bjobs\s+report\b|\bpayrolls\b|\bfed\b|\bfederal\s+reserve\b|\binterest\s+rates?\b"
          r"|\brecession\b|\bbond\s+yields?\b|\bgdp\b",
          r"通胀|非农|美联储|加息|利率|经济数据|衰退|国债收益率"),
    _kind("deal", 0,
          r"\b(?:acquisition|acquire[sd]?|acquiring|merger|takeover|buyout|bid\s+for|deal\s+to\s+buy|to\s+buy\b|spin-?off)",
          r"收购|并购|重组|要约|分拆|合并"),
    _kind("buyback", 1,
          r"\b(?:buy-?backs?|repurchases?|repurchasing)\b|\bdividend\s+(?:hike|increase|raise)\b",
          r"回购|增持计划|提高分红|特别分红"),
    _kind("share_sale", -1,
          r"\b(?:share\s+sale|stock\s+sale|offering|placement|dilution|stake\s+sale|sells?\s+(?:a\s+)?stake"
          r"|lock-?up\s+expir\w*)\b",
          r"减持|定增|配股|增发|解禁|抛售股份"),
    _kind("competition", -1,
          r"\bcompetition\b|\bcompetitors?\b|\brivals?\b|\bprice\s+war\b|\bcompetitive\s+pressure\b|\bstart-?ups?\b",
          r"竞争|价格战|补贴战|内卷|对手"),
    _kind("sales", 0,
          r"\b(?:sales|deliveries|shipments|orders|subscribers?|customers|bookings|traffic|demand)\b(?:[^.;]|\.(?=\d)){0,40}"
          r"\b(?:rose|rise|fell|fall|jump\w*|slump\w*|record|slow\w*|weak\w*|strong|fewer|more\s+than|less\s+than|lost)\b"
          r"|\b(?:lost|added|fewer)\b(?:[^.;]|\.(?=\d)){0,30}\b(?:subscribers?|customers)\b",
          r"销量|交付|订单|出货|用户数|客户数|需求(?:疲软|旺盛|下滑|回暖)"),
    _kind("product_letdown", -1,
          r"\b(?:event|launch|unveil\w*|product|demo|presentation|keynote)\b(?:[^.;]){0,40}\b(?:lacked|lacking"
          r"|disappoint\w*|underwhelm\w*|fell\s+flat|short\s+on|left\s+investors\s+wanting)\b"
          r"|\b(?:disappointing|underwhelming|lackluster|lacklustre)\s+(?:event|launch|product|unveil\w*|demo)",
          r"发布会[^。；]{0,12}(?:不及预期|令人失望|低于预期|反响平平)|新品[^。；]{0,8}(?:遇冷|不及预期)"),
    _kind("product", 0,
          r"\b(?:launch\w*|unveil\w*|approval|approved|breakthrough|new\s+(?:model|product|chip|drug))\b",
          r"发布会|新品|获批|上市许可|突破|首发"),
    _kind("management", 0,
          r"\b(?:ceo|cfo|chief\s+executive|chairman|founder)\b(?:[^.;]|\.(?=\d)){0,30}\b(?:resign\w*|steps?\s+down|stepping\s+down"
          r"|ousted|departs?|departure|exit|leaves?|appointed|named)\b",
          r"辞职|离任|卸任|董事长变更|总经理变更|高管变动"),
    _kind("profit_taking", -1,
          r"\bprofit[- ]taking\b|\btook\s+profits?\b|\b(?:pullback|pull-back|retreat)\s+after\s+(?:a|its|the)\s+"
          r"(?:\w+\s+)?(?:rally|run|surge)\b|\boverbought\b",
          r"获利回吐|获利了结|止盈|技术性回调|短期涨幅过大"),
    _kind("short_report", -1, r"\bshort[- ]sellers?\b|\bshort\s+report\b", r"做空报告|做空机构"),
    _kind("accident", -1, r"\brecall\w*\b|\boutage\b|\baccident\b|\bexplosion\b|\bfire\b|\bcyberattack\b|\bhack\w*\b",
          r"召回|事故|爆炸|火灾|停产|网络攻击"),
)
BY_ID = {kind.id: kind for kind in KINDS}

# What a story says to play a move down or call it overdone: evidence that speaks against
# the move's cause mattering as much as the move suggests.
TEMPERING = re.compile(
    r"\b(?:limited\s+impact|impact\s+(?:is|was|would\s+be)\s+limited|overdone|overreact\w*|over-react\w*"
    r"|entry\s+point|buying\s+opportunit\w*|cheapest\s+valuation|undervalued|priced\s+in|unchanged|reaffirm\w*"
    r"|operations?\s+(?:are|were|remain)?\s*normal|no\s+(?:material\s+)?impact)\b"
    r"|影响有限|影响不大|过度反应|过度恐慌|无需过度|错杀|情绪冲击|超跌|估值修复|经营正常|一切正常"
    r"|尚处于征求意见|仍处于征求意见", re.I)
# What a company does to limit the blow ("shift production to the US to limit tariff costs"): no
# reason the price moved, but a point against worrying about it.
MITIGATING = re.compile(
    r"\b(?:limit|limits|limiting|offset|offsets|offsetting|mitigate|mitigates|mitigating|cushion|cushions"
    r"|soften|softens)\s+(?:the\s+|its\s+|their\s+)?(?:\w+\s+)?(?:costs?|impact|hit|blow|damage|burden)\b"
    r"|(?:对冲|缓解|抵消|减轻)[^。；，]{0,8}(?:影响|冲击|成本|压力)", re.I)


# A story that looks ahead to results ("what to expect", "to report on …") is not about results.
_PREVIEW = re.compile(r"\bwhat\s+to\s+expect\b|\bpreview\b|\bahead\s+of\s+(?:its|the)\s+(?:results|report|earnings)"
                      r"|\b(?:to|will|expected\s+to)\s+report\b|\banalysts?\s+(?:expect|expects|expecting|see)\b"
                      r"|前瞻|将于[^。；]{0,12}(?:发布|公布)", re.I)
# Kinds that say only what the news was about, and the kinds that say which way it went: found
# together, the plain one's stories count for the directed one ("after results" with "beat estimates").
FAMILIES = {"results": ("results_beat", "results_miss", "guidance_cut", "guidance_raise"),
            "product": ("product_letdown",)}


def kinds_in(text: str) -> list[CauseKind]:
    """The kinds a sentence names, most specific first."""
    found = [kind for kind in KINDS if kind.named_in(text)]
    if _PREVIEW.search(text):
        found = [kind for kind in found if kind.id not in ("results", *FAMILIES["results"])]
    return found
