"""Portuguese word lists for the rewriter (``pt.py`` and its ``pt_*.py`` rule modules): closed
classes, person nouns, endings.

All written by hand (grammar knowledge) for the Portuguese rules; none taken from the
benchmark data.
"""

from __future__ import annotations

# ---------------------------------------------------------------- closed classes, (fem, masc)
_DETS = [
    ("a", "o"),
    ("as", "os"),
    ("uma", "um"),
    ("umas", "uns"),
    ("da", "do"),
    ("das", "dos"),
    ("na", "no"),
    ("nas", "nos"),
    ("à", "ao"),
    ("às", "aos"),
    ("pela", "pelo"),
    ("pelas", "pelos"),
    ("duma", "dum"),
    ("numa", "num"),
    ("sua", "seu"),
    ("suas", "seus"),
    ("minha", "meu"),
    ("minhas", "meus"),
    ("tua", "teu"),
    ("nossa", "nosso"),
    ("nossas", "nossos"),
    ("esta", "este"),
    ("estas", "estes"),
    ("essa", "esse"),
    ("essas", "esses"),
    ("aquela", "aquele"),
    ("aquelas", "aqueles"),
    ("desta", "deste"),
    ("dessa", "desse"),
    ("daquela", "daquele"),
    ("nesta", "neste"),
    ("nessa", "nesse"),
    ("naquela", "naquele"),
    ("àquela", "àquele"),
    ("duas", "dois"),
    ("ambas", "ambos"),
    ("todas", "todos"),
    ("outra", "outro"),
    ("outras", "outros"),
    ("várias", "vários"),
    ("algumas", "alguns"),
    ("alguma", "algum"),
    ("nenhuma", "nenhum"),
    ("muitas", "muitos"),
    ("poucas", "poucos"),
    ("tantas", "tantos"),
    ("quantas", "quantos"),
    ("cujas", "cujos"),
    ("cuja", "cujo"),
]
# determiners that behave like adjectives: the article before them agrees (`os outros réus`)
_ADJ_DETS = frozenset(
    "dois duas outro outra outros outras vários várias muitos muitas poucos poucas".split()
)
# `todos os homens`: agrees with the article after it
_ALL_DETS = frozenset("todos todas todo toda ambos ambas".split())
_ARTICLES = frozenset("o a os as do da dos das no na nos nas ao à aos às pelo pela".split())
_POSSESSIVES = frozenset("seu sua seus suas meu minha meus minhas".split())
_PRONOUNS = [("ela", "ele"), ("dela", "dele"), ("nela", "nele"), ("daquela", "daquele")]

# Person nouns whose feminine is not the regular suffix change, and frequent regular ones that
# may stand anywhere (not only after a copula). (masculine, feminine)
_PERSON = [
    ("pai", "mãe"),
    ("homem", "mulher"),
    ("homens", "mulheres"),
    ("menino", "menina"),
    ("meninos", "meninas"),
    ("garoto", "garota"),
    ("garotos", "garotas"),
    ("filho", "filha"),
    ("irmão", "irmã"),
    ("irmãos", "irmãs"),
    ("avô", "avó"),
    ("bisavô", "bisavó"),
    ("tataravô", "tataravó"),
    ("vovô", "vovó"),
    ("cunhado", "cunhada"),
    ("enteado", "enteada"),
    ("enteados", "enteadas"),
    ("sogro", "sogra"),
    ("genro", "nora"),
    ("afilhado", "afilhada"),
    ("neto", "neta"),
    ("netos", "netas"),
    ("bisneto", "bisneta"),
    ("bisnetos", "bisnetas"),
    ("tio", "tia"),
    ("sobrinho", "sobrinha"),
    ("esposo", "esposa"),
    ("marido", "esposa"),  # f→m: `esposa` → `marido` (the references' usual choice)
    ("maridos", "esposas"),
    ("noivo", "noiva"),
    ("viúvo", "viúva"),
    ("padrasto", "madrasta"),
    ("rei", "rainha"),
    ("reis", "rainhas"),
    ("príncipe", "princesa"),
    ("príncipes", "princesas"),
    ("imperador", "imperatriz"),
    ("imperadores", "imperatrizes"),
    ("conde", "condessa"),
    ("condes", "condessas"),
    ("duque", "duquesa"),
    ("duques", "duquesas"),
    ("arquiduque", "arquiduquesa"),
    ("barão", "baronesa"),
    ("barões", "baronesas"),
    ("visconde", "viscondessa"),
    ("viscondes", "viscondessas"),
    ("marquês", "marquesa"),
    ("cavalheiro", "dama"),
    ("cavalheiros", "damas"),
    ("senhor", "senhora"),
    ("senhores", "senhoras"),
    ("sacerdote", "sacerdotisa"),
    ("sacerdotes", "sacerdotisas"),
    ("monge", "freira"),
    ("monges", "freiras"),
    ("abade", "abadessa"),
    ("herói", "heroína"),
    ("heróis", "heroínas"),
    ("poeta", "poetisa"),
    ("profeta", "profetisa"),
    ("ator", "atriz"),
    ("atores", "atrizes"),
    ("patriarca", "matriarca"),
    ("réu", "ré"),
    ("réus", "rés"),
    ("czar", "czarina"),
    ("padrinho", "madrinha"),
]
# only as the predicate or after `como` (elsewhere often another person)
_PERSON_PRED = [
    ("poetas", "poetisas"),
    ("arquiteto", "arquiteta"),
    ("arquitetos", "arquitetas"),
    ("campeão", "campeã"),
    ("mestre", "mestra"),
    ("herdeiro", "herdeira"),
    ("cidadão", "cidadã"),
    ("capitão", "capitã"),
    ("guardião", "guardiã"),
    ("anfitrião", "anfitriã"),
    ("vilão", "vilã"),
    ("órfão", "órfã"),
    ("embaixador", "embaixatriz"),
    ("embaixador", "embaixadora"),
    ("primo", "prima"),
    ("amigo", "amiga"),
    ("membro", "membra"),
    ("juiz", "juíza"),
    ("aluno", "aluna"),
    ("sócio", "sócia"),
    ("dono", "dona"),
]

# Endings (masculine form) of words that are adjectives or person nouns, safe to inflect next to
# a changed noun; a bare -o/-a word needs one of these or to be in _ADJ.
_ADJ_ENDINGS = (
    "ado", "ido", "oso", "ivo", "ico", "ano", "ário", "eiro", "ento", "udo", "ório", "ério",
    "esco", "ístico", "ino", "ável", "ólogo", "ógrafo", "or", "ês", "ão", "eto", "ito", "into",
    "ordo", "ulo", "inho", "íno", "uro",
)  # fmt: skip
_ADJ = frozenset(
    """novo velho lindo belo branco negro preto alto baixo gordo magro louco rico cego surdo
    mudo morto vivo sozinho pequeno bonito feio fraco duro primeiro segundo terceiro quarto quinto
    sexto sétimo oitavo nono décimo último próprio mesmo único outro certo tal famoso jovem
    solteiro casado viúvo divorciado nascido eleito preso honesto justo sério sábio calmo
    tímido ruivo moreno loiro louro escuro claro querido amado perfeito pronto culpado inocente
    dedicado apaixonado orgulhoso bravo cansado zangado satisfeito contente atento fiel
    autônomo independente infeliz feliz bom mau fraco""".split()
)
# adjectives whose feminine is no suffix change (masculine, feminine)
_IRREGULAR_ADJ = [("bom", "boa"), ("bons", "boas"), ("mau", "má"), ("maus", "más")]
# words that end like an adjective but are (also) frequent nouns or verbs
_NOT_ADJ = frozenset(
    """caso jogo parto passado estado mercado resultado reinado condado ducado senado partido
    sentido vestido tratado bispado marido conto canto ensino trabalho acho volto torno lembro
    continuo recordo encontro passo junto conta casa marco maio ano plano piano deixo acho jogo
    falo gosto penso chamo fico levo toco mando pergunto olho ando luto apoio moro ajudo estudo
    sonho espero procuro chego uso meio segundo""".split()
)
_ADV = frozenset(
    """muito tão bem mais menos bastante extremamente particularmente também ainda já
    sempre nunca então depois logo novamente inicialmente posteriormente finalmente oficialmente
    rapidamente igualmente considerado considerada""".split()
)
_PARTICIPLE = ("ado", "ada", "ido", "ida", "ados", "adas", "idos", "idas")
# words that are neither a noun nor a verb
_FUNCTION = frozenset(
    """ele ela eles elas isso isto aquilo quem onde quando como embora porque pois mas
    então depois antes também ainda nunca sempre apenas mesmo mesma próprio própria
    sobre entre contra desde após durante""".split()
)
_COPULAS = frozenset(
    """foi era é será seria fora sido ser estava esteve está estar sendo ficou fica ficava
    ficaria permaneceu permanece parecia parece tornou torna tornara tornar fosse for
    estivesse estiver esteja seja ficasse fique virou virar vira""".split()
)
# plural copulas: a predicate after them agrees only with a changed subject right before
_COPULAS_PL = frozenset(
    """eram foram são serão seriam estavam estiveram estão ficaram ficam ficavam permaneceram
    pareciam parecem fossem sejam estivessem""".split()
)
# verbs with an object predicate: `a tornou famosa`, `a consideram uma das maiores`
_OBJ_PRED = ("torn", "consider", "deix", "cham", "nome", "eleg", "declar", "proclam", "julg")
# participles that open a sentence about a thing (`Baseado em`, `Relacionado a isso`)
_THING_PARTICIPLES = frozenset(
    """baseado baseada relacionado relacionada comparado comparada localizado localizada
    situado situada fundado fundada publicado publicada lançado lançada construído construída
    dado dada considerando""".split()
)
_SURE_PERSON = ("dor", "tor", "sor", "ista", "eiro", "ário")
# `promovida a diretora`: the preposition `a`, not the article
_PROMOTED = ("promovid", "elevad", "ascendeu", "ascendid", "rebaixad")
_OPENERS = frozenset("quando embora se depois após".split())
_CONJ = frozenset("e mas quando embora porque pois enquanto se que onde ou".split())
_AUX = frozenset(
    """tinha havia tem teria tendo ter terá pode podia poderia deve devia deveria iria vai ia
    foi provou provaria prova parecia parece costumava queria quis pretendia viria veio
    acabou acabaria haviam tinham têm podiam podem deviam devem iam vão""".split()
)
_SUBJ_SKIP = frozenset(
    """também não já então ainda nunca sempre logo depois mais tarde se posteriormente
    inicialmente finalmente oficialmente""".split()
)
_PRE_CLITIC = frozenset(
    """que não nunca jamais já também ainda quem onde quando se e alguns muitos todos""".split()
)
_PREP = frozenset("de para a sem por após antes ao".split())
# a capitalised word after these is not a person's name (`O Parlamento`, `Universidade de Lisboa`)
_NAME_BLOCK = frozenset(
    """o a os as um uma do da dos das no na nos nas ao à pelo pela de em e seu sua este esta
    esse essa""".split()
)
_HEAD_END = frozenset("a de do da dos das em entre que para pelo pela por".split())
_VERB_ENDINGS = ("ram", "rem", "ou", "iu", "ava", "avam", "iam", "aria", "ará")
# a verb form: (ending, infinitive endings); the infinitive must be a frequent word
_VERB_FORMS = (
    ("ariam", ("ar",)), ("eriam", ("er",)), ("iriam", ("ir",)),
    ("aria", ("ar",)), ("eria", ("er",)), ("iria", ("ir",)),
    ("aram", ("ar",)), ("eram", ("er",)), ("iram", ("ir",)),
    ("assem", ("ar",)), ("essem", ("er",)), ("issem", ("ir",)),
    ("asse", ("ar",)), ("esse", ("er",)), ("isse", ("ir",)),
    ("ando", ("ar",)), ("endo", ("er",)), ("indo", ("ir",)),
    ("avam", ("ar",)), ("ava", ("ar",)), ("iam", ("er", "ir")), ("ia", ("er", "ir")),
    ("ará", ("ar",)), ("erá", ("er",)), ("irá", ("ir",)),
    ("arem", ("ar",)), ("erem", ("er",)), ("irem", ("ir",)),
    ("ou", ("ar",)), ("eu", ("er",)), ("iu", ("ir",)),
    ("am", ("ar",)), ("em", ("er", "ir")),
)  # fmt: skip
# present singular (`o ajuda`, `a leva`): often a noun after an article, so only where asked
_VERB_FORMS_SG = (("a", ("ar",)), ("e", ("er", "ir")))
_IRREGULAR_VERBS = frozenset(
    """fez faz fará faria fizeram fizesse deu deram dá dão daria viu viram vê vêem disse
    disseram diz tem teve tinha têm tiveram tivesse pôs põe puseram quis quiseram trouxe
    trouxeram traz levou vai foi viam via verem vendo leu leram lê""".split()
)
# nouns that look like a verb form
_NOT_VERB = frozenset(
    """homem ordem jovem viagem imagem origem margem nuvem bem trem porém também alguém
    ninguém além armazém refém desdém sem tem mundo fundo segundo comando bando museu
    ateu judeu europeu plebeu apogeu liceu caso""".split()
)
# suffix changes (feminine, masculine), longest first
_SUFFIXES = [
    ("oras", "ores"),
    ("ora", "or"),
    ("esas", "eses"),
    ("esa", "ês"),
    ("onas", "ões"),
    ("ona", "ão"),
    ("ãs", "ãos"),
    ("ã", "ão"),
    ("eias", "eus"),
    ("eia", "eu"),
    ("as", "os"),
    ("a", "o"),
]
_PERSON_ENDINGS = (
    "or", "ores", "eiro", "eiros", "ário", "ários", "ólogo", "ógrafo", "ês", "ico", "ado",
    "ino", "eto", "ano", "ão", "ista", "ante", "ente",
)  # fmt: skip
_INVARIANT_PERSON_ENDINGS = ("ista", "ante", "ente", "icida", "arca", "nauta", "ota")
# person nouns of both genders: only the article and the adjectives change
_INVARIANT_PERSON = frozenset(
    """fã líder jovem colega caçula policial intelectual homossexual heterossexual personagem
    cônjuge chefe atleta camarada modelo guia rival adulto cliente""".split()
)
# nouns of one grammatical gender for a person of either (`a criança`, `o gênio`): neither the
# article nor an adjective agreeing with them changes
_EPICENE = frozenset(
    """criança crianças pessoa pessoas vítima vítimas celebridade celebridades estrela estrelas
    ídolo ídolos gênio gênios génio génios testemunha testemunhas personalidade personalidades
    figura figuras indivíduo indivíduos""".split()
)
# adjectives of both genders before a person noun
_PRE_ADJ = frozenset(
    """grande principal melhor maior pior jovem ex célebre ilustre notável importante
    eminente brilhante excelente atual""".split()
)
_PRE_ADJ_PL = frozenset(
    """grandes principais melhores maiores piores jovens célebres ilustres notáveis
    importantes eminentes brilhantes excelentes atuais""".split()
)
# words with a person ending that are no person
_NOT_PERSON = frozenset(
    """lista vista pista revista conquista entrevista crista restaurante instante presente
    acidente continente ambiente""".split()
)
# nouns in -or that name machines and things, never a person (`o motor`, `o computador`)
_THING_OR = frozenset(
    """motor motores computador computadores elevador elevadores ventilador ventiladores
    aquecedor aquecedores refrigerador refrigeradores processador processadores indicador
    indicadores acelerador aceleradores gerador geradores transformador transformadores reator
    reatores condensador marcador marcadores carregador carregadores interruptor detector
    detectores sensor sensores setor setores vetor vetores fator fatores radiador
    liquidificador condicionador amplificador controlador simulador tambor tambores""".split()
)
_INVARIANT_PLURAL = ("istas", "antes", "entes", "arcas", "nautas", "icidas")
# feminine forms the word lists may lack: agent nouns in a person's predicate (`recebedora`)
_AGENT = ("dor", "tor", "sor", "dores", "tores", "sores")

# ---------------------------------------------------------------- Wikipedia lead sentences
# `X (Lisboa, 1920 — Porto, 1990) foi um pintor e gravador português.`: the copula after the
# subject, and the predicate's coordinated nouns and adjectives, all agreeing with the person
_LEAD_COPULAS = frozenset("é foi era".split())
# (masculine, feminine) person nouns whose form the suffix rules miss
_LEAD_PAIRS = [
    ("ministro", "ministra"),
    ("ministros", "ministras"),
    ("filantropo", "filantropa"),
    ("prefeito", "prefeita"),
    ("maestro", "maestrina"),
    ("dramaturgo", "dramaturga"),
    ("bailarino", "bailarina"),
    ("cirurgião", "cirurgiã"),
    ("artesão", "artesã"),
    ("escrivão", "escrivã"),
    ("chileno", "chilena"),
    ("espanhol", "espanhola"),
    ("judeu", "judia"),
    ("europeu", "europeia"),
    ("plebeu", "plebeia"),
]
# nationality and origin adjectives (masculine singular); the feminine is the regular one
_NATIONS = frozenset(
    """português brasileiro francês alemão espanhol italiano inglês americano britânico chileno
    argentino mexicano angolano moçambicano verdiano russo chinês japonês holandês neerlandês
    suíço sueco norueguês dinamarquês finlandês polonês polaco checo tcheco húngaro romeno grego
    turco austríaco australiano irlandês escocês galês colombiano peruano venezuelano uruguaio
    paraguaio boliviano equatoriano cubano egípcio indiano paquistanês iraniano iraquiano sírio
    libanês marroquino argelino tunisino nigeriano africano ucraniano sérvio esloveno eslovaco
    búlgaro lituano letão estoniano islandês galego catalão basco europeu asiático latino judeu
    católico muçulmano cristão luso açoriano madeirense napolitano siciliano veneziano romano
    carioca paulista mineiro gaúcho baiano pernambucano cearense paraense goiano
    paranaense catarinense capixaba fluminense amazonense nordestino lisboeta portuense
    coreano vietnamita tailandês filipino indonésio malaio israelense israelita palestino
    saudita jordaniano etíope queniano ganês senegalês camaronês congolês guineense
    timorense macaense""".split()
)
# person nouns with no feminine form in use: a lead about one of them is left as it is
_NO_FEM = frozenset("bispo arcebispo padre frade papa cardeal pároco abade monge".split())
# words after the predicate's nouns that stay: invariable adjectives and nouns of both genders
_LEAD_SAME_ENDINGS = (
    "ista", "istas", "nte", "ntes", "ense", "enses", "al", "ais", "il", "is", "ar", "ares",
    "vel", "veis", "ta", "tas", "ita", "cida", "arca", "e", "es", "em", "ens",
)  # fmt: skip
_LEAD_SAME = frozenset(
    """membro jovem líder chefe nobre militar civil atual ex modelo guia colega
    atleta diplomata""".split()
)
# the first part of a compound adjective or noun stays (`norte-americano`, `ex-futebolista`)
_LEAD_PREFIXES = frozenset(
    """ex norte sul latino luso afro ítalo franco anglo greco austro cabo vice sub pós multi
    co""".split()
)
_LEAD_PREPS = frozenset(
    """de do da dos das em no na nos nas desde por pelo pela para com sobre entre à ao aos às
    até""".split()
)
