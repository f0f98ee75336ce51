<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN">
<context>
    <name>AttentionViews</name>
    <message>
        <source>heads {0}–{1} share K/V head {2}</source>
        <translation>头 {0}–{1} 共用 K/V 头 {2}</translation>
    </message>
    <message>
        <source>Grouped-query attention, {0} query heads on {1} K/V heads: {2}. The heads of a group score the same keys with their own queries.</source>
        <translation>分组查询注意力，{0} 个查询头共用 {1} 个 K/V 头：{2}。同一组的头用各自的查询向量给相同的键向量打分。</translation>
    </message>
    <message>
        <source>, </source>
        <translation>，</translation>
    </message>
    <message>
        <source>Hidden: {0} ({1:.0%} of all attention); each row of the rest is renormalised to add up to 1. Models park attention on the first token, on [CLS], [SEP] and full stops when a head has nothing useful to look at: softmax must put its weight somewhere, and these tokens are always there.</source>
        <translation>已隐藏：{0}（占全部注意力的 {1:.0%}）；其余部分每行重新归一化，使之和为 1。当一个头没有有用的东西可看时，模型会把注意力停放在第一个词元、[CLS]、[SEP] 和句号上：softmax 总得把权重放在某处，而这些词元总是存在。</translation>
    </message>
    <message>
        <source>Export the view</source>
        <translation>导出视图</translation>
    </message>
    <message>
        <source>{0} was not exported: {1}</source>
        <translation>{0} 未能导出：{1}</translation>
    </message>
    <message>
        <source>Cannot export</source>
        <translation>无法导出</translation>
    </message>
    <message>
        <source>Exported {0}</source>
        <translation>已导出 {0}</translation>
    </message>
    <message>
        <source>Layer {0}, head {1}: click to open it</source>
        <translation>第 {0} 层，第 {1} 个头：单击打开</translation>
    </message>
    <message>
        <source>Where “{0}” looks: its attention over every key</source>
        <translation>“{0}”看向哪里：它在每个键向量上的注意力</translation>
    </message>
    <message>
        <source>Who looks at “{0}”: every query&apos;s weight on it</source>
        <translation>谁在看“{0}”：每个查询给它的权重</translation>
    </message>
    <message>
        <source>Where attention goes</source>
        <translation>注意力去向</translation>
    </message>
    <message>
        <source>Head view</source>
        <translation>头视图</translation>
    </message>
    <message>
        <source>Lines from each token (left) to the tokens it attends to (right), one colour per head; click a swatch to switch a head on or off, double-click to keep only it; hover a token for its lines alone</source>
        <translation>每个词元（左）到它所关注词元（右）的连线，每个头一种颜色；单击色块开关该头，双击只保留它；悬停在词元上只看它的连线</translation>
    </message>
    <message>
        <source>Model view</source>
        <translation>模型视图</translation>
    </message>
    <message>
        <source>Every layer and head at once; click one to open it</source>
        <translation>一次看全所有层和头；单击其一即可打开</translation>
    </message>
    <message>
        <source>Hide attention sinks</source>
        <translation>隐藏注意力汇点</translation>
    </message>
    <message>
        <source>Leave out the first token, [CLS], [SEP] and full stops, and renormalise the rest of each row</source>
        <translation>去掉第一个词元、[CLS]、[SEP] 和句号，并把每行其余部分重新归一化</translation>
    </message>
    <message>
        <source>Export</source>
        <translation>导出</translation>
    </message>
    <message>
        <source>Export as PNG…</source>
        <translation>导出为 PNG…</translation>
    </message>
    <message>
        <source>Export as SVG…</source>
        <translation>导出为 SVG…</translation>
    </message>
    <message>
        <source>query</source>
        <translation>查询</translation>
    </message>
    <message>
        <source>key</source>
        <translation>键向量</translation>
    </message>
    <message>
        <source>mean of {0} heads</source>
        <translation>{0} 个头的平均</translation>
    </message>
    <message>
        <source>K/V {0}</source>
        <translation>K/V {0}</translation>
    </message>
</context>
<context>
    <name>BugsLab</name>
    <message>
        <source>N next bug, Shift+N the one before; Q question mode; 1–4 answer, R reveal.</source>
        <translation>按 N 看下一个错误，Shift+N 看上一个；Q 切换提问模式；1–4 作答，R 揭晓。</translation>
    </message>
    <message>
        <source>Bug {0} of {1}</source>
        <translation>第 {0} 个错误，共 {1} 个</translation>
    </message>
    <message>
        <source>{0} of {1} right</source>
        <translation>答对 {0} / {1}</translation>
    </message>
    <message>
        <source>&lt;b&gt;Right&lt;/b&gt;: softmax(QKᵀ/√d_k + M)</source>
        <translation>&lt;b&gt;正确&lt;/b&gt;：softmax(QKᵀ/√d_k + M)</translation>
    </message>
    <message>
        <source>&lt;b&gt;With the bug&lt;/b&gt;: {0}</source>
        <translation>&lt;b&gt;有错误&lt;/b&gt;：{0}</translation>
    </message>
    <message>
        <source>&lt;b&gt;With a bug&lt;/b&gt;: which one?</source>
        <translation>&lt;b&gt;有一个错误&lt;/b&gt;：是哪一个？</translation>
    </message>
    <message>
        <source>&lt;b style=&quot;color:{1}&quot;&gt;Symptom&lt;/b&gt;: {0}</source>
        <translation>&lt;b style=&quot;color:{1}&quot;&gt;症状&lt;/b&gt;：{0}</translation>
    </message>
    <message>
        <source>Which bug is this?</source>
        <translation>这是哪个错误？</translation>
    </message>
    <message>
        <source>Revealed: &lt;b&gt;{0}&lt;/b&gt;</source>
        <translation>答案：&lt;b&gt;{0}&lt;/b&gt;</translation>
    </message>
    <message>
        <source>&lt;span style=&quot;color:{0}&quot;&gt;✓ Right&lt;/span&gt;: &lt;b&gt;{1}&lt;/b&gt;</source>
        <translation>&lt;span style=&quot;color:{0}&quot;&gt;✓ 答对了&lt;/span&gt;：&lt;b&gt;{1}&lt;/b&gt;</translation>
    </message>
    <message>
        <source>&lt;span style=&quot;color:{0}&quot;&gt;✗ Not quite&lt;/span&gt;: this is &lt;b&gt;{1}&lt;/b&gt;</source>
        <translation>&lt;span style=&quot;color:{0}&quot;&gt;✗ 不对&lt;/span&gt;：这是&lt;b&gt;{1}&lt;/b&gt;</translation>
    </message>
    <message>
        <source>&lt;b&gt;Spot the bug.&lt;/b&gt; The same four tokens computed right (left) and through a real bug from a public issue tracker (right). Read the symptom, then name the bug.</source>
        <translation>&lt;b&gt;找错误。&lt;/b&gt;同样四个词元，左边按正确方法计算，右边经过一个在公开问题追踪中真实出现过的错误。先读症状，再说出是哪个错误。</translation>
    </message>
    <message>
        <source>◀ Previous</source>
        <translation>◀ 上一个</translation>
    </message>
    <message>
        <source>The bug before (Shift+N)</source>
        <translation>上一个错误（Shift+N）</translation>
    </message>
    <message>
        <source>Next bug ▶</source>
        <translation>下一个错误 ▶</translation>
    </message>
    <message>
        <source>The next bug (N)</source>
        <translation>下一个错误（N）</translation>
    </message>
    <message>
        <source>Question mode (Q)</source>
        <translation>提问模式（Q）</translation>
    </message>
    <message>
        <source>Hide the bug&apos;s name and ask which bug it is</source>
        <translation>隐藏错误名称，问这是哪个错误</translation>
    </message>
    <message>
        <source>Reveal (R)</source>
        <translation>揭晓（R）</translation>
    </message>
    <message>
        <source>Show the answer without guessing</source>
        <translation>不猜，直接显示答案</translation>
    </message>
    <message>
        <source>Softmax over the wrong axis</source>
        <translation>softmax 沿错了轴</translation>
    </message>
    <message>
        <source>Scaled by √d_model, not the head&apos;s √d_k</source>
        <translation>除以 √d_model，而不是每个头的 √d_k</translation>
    </message>
    <message>
        <source>Mask applied after the softmax</source>
        <translation>在 softmax 之后才加掩码</translation>
    </message>
    <message>
        <source>Masked with 0 instead of −∞</source>
        <translation>掩码填 0，而不是 −∞</translation>
    </message>
    <message>
        <source>A fully masked row gives NaN</source>
        <translation>整行被掩盖，得到 NaN</translation>
    </message>
    <message>
        <source>No max-shift: e^x overflows</source>
        <translation>没减最大值：e^x 溢出</translation>
    </message>
    <message>
        <source>K not transposed</source>
        <translation>K 没有转置</translation>
    </message>
    <message>
        <source>Not a bug: q scaled before the dot product</source>
        <translation>不是错误：点积之前先缩放 q</translation>
    </message>
    <message>
        <source>The softmax ran down the columns (dim=0) instead of along each query&apos;s row of keys (dim=−1). Every key&apos;s column now sums to 1: the queries compete for a key, and a query&apos;s weights no longer add up to 1.</source>
        <translation>softmax 沿着列（第 0 维）计算，而不是沿着每个查询对各键向量的那一行（最后一维）。现在每个键向量那一列的和为 1：是查询在争夺一个键向量，而一个查询的权重之和不再是 1。</translation>
    </message>
    <message>
        <source>A head&apos;s q·k adds d_k products, so it is divided by √d_k. Dividing by √d_model = √(h·d_k) shrinks every score by a further √h: the same scores at a higher temperature, flatter weights.</source>
        <translation>一个头的 q·k 是 d_k 个乘积之和，所以要除以 √d_k。除以 √d_model = √(h·d_k) 会让每个分数再缩小 √h 倍：相当于同样的分数换了更高的温度，权重更平。</translation>
    </message>
    <message>
        <source>The masked weights were set to 0 after the softmax had shared 1 among all keys, the masked ones too. What the visible keys keep no longer adds up to 1; the first query keeps least.</source>
        <translation>softmax 已经把 1 分给了所有键向量（包括被掩盖的），之后才把被掩盖的权重设为 0。可见键向量留下的权重之和不再是 1；第一个查询留下的最少。</translation>
    </message>
    <message>
        <source>A masked score set to 0 (or 1e−9) still gets e⁰ = 1 in the softmax, so the masked keys keep weight: as much as any key whose score is 0. Only −∞ (or a very large negative number) gives e^x = 0.</source>
        <translation>被掩盖的分数设为 0（或 1e−9）后，在 softmax 里仍得到 e⁰ = 1，所以被掩盖的键向量还有权重：和任何分数为 0 的键向量一样多。只有 −∞（或绝对值很大的负数）才能让 e^x = 0。</translation>
    </message>
    <message>
        <source>This query may look at no key at all (padding masked both as a query and as a key). Its scores are all −∞, the max-shift gives −∞ − (−∞) = NaN, and NaN spreads to the output and, in training, to every gradient. Give such rows zero weights, or leave them out.</source>
        <translation>这个查询一个键向量也不能看（填充词元既作为查询又作为键向量被掩盖）。它的分数全是 −∞，减去最大值得到 −∞ − (−∞) = NaN，NaN 会传到输出，训练时还会传到每个梯度。应给这样的行全零权重，或者干脆去掉它们。</translation>
    </message>
    <message>
        <source>The softmax was written as e^x / Σe^x. Scores near 1000 give e^x = inf (float64 stops at e^709.78, float16 at e^11), and inf/inf is NaN. Subtracting each row&apos;s maximum first changes no weight and keeps every e^x at most 1.</source>
        <translation>softmax 被写成 e^x / Σe^x。分数接近 1000 时 e^x = inf（float64 最大到 e^709.78，float16 只到 e^11），而 inf/inf 是 NaN。先减去每行的最大值，权重一个也不变，而每个 e^x 都不超过 1。</translation>
    </message>
    <message>
        <source>Q·K instead of Q·Kᵀ. When d_k ≠ N the product fails with a shape error. Here N = d_k = 4, so it runs: each query meets the keys&apos; columns, not the keys. Every row still sums to 1 and nothing complains, but the weights are wrong.</source>
        <translation>写成了 Q·K 而不是 Q·Kᵀ。d_k ≠ N 时乘法会因形状不符而报错。这里 N = d_k = 4，所以能算：每个查询碰到的是 K 矩阵的列，而不是各个键向量。每行之和仍是 1，也没有任何报错，但权重是错的。</translation>
    </message>
    <message>
        <source>(q/√d_k)·k = (q·k)/√d_k: the factor may go on q, on the scores, or be split between q and k. The weights are the same to rounding. It was reported as a bug; it is not one (and it saves work: d_k divisions per query instead of N).</source>
        <translation>(q/√d_k)·k = (q·k)/√d_k：这个因子可以乘在 q 上、乘在分数上，或者分给 q 和 k。权重在舍入误差内完全相同。它曾被当作错误报告过；其实不是（而且更省事：每个查询做 d_k 次除法，而不是 N 次）。</translation>
    </message>
    <message>
        <source>this code:</source>
        <translation>这段代码：</translation>
    </message>
    <message>
        <source>buggy:</source>
        <translation>错误：</translation>
    </message>
    <message>
        <source>the same as:</source>
        <translation>等同于：</translation>
    </message>
    <message>
        <source>right:</source>
        <translation>正确：</translation>
    </message>
    <message>
        <source>Seen in: countless hand-written attention codes; no single public report is named here.</source>
        <translation>出现于：无数手写的注意力代码；这里不特指某一份公开报告。</translation>
    </message>
    <message>
        <source>Reported as a bug in: {0}</source>
        <translation>曾被当作错误报告于：{0}</translation>
    </message>
    <message>
        <source>Seen in: {0}</source>
        <translation>出现于：{0}</translation>
    </message>
    <message>
        <source>Scores reach &lt;b&gt;{0}&lt;/b&gt;: e^{0} overflows to inf in {1} of {2} exponentials (float64 stops at e^709.78), and inf/inf gives &lt;b&gt;NaN&lt;/b&gt; in {3} weights.</source>
        <translation>分数达到 &lt;b&gt;{0}&lt;/b&gt;：e^{0} 溢出为 inf，{2} 个指数中有 {1} 个（float64 最大到 e^709.78），inf/inf 使 {3} 个权重成为 &lt;b&gt;NaN&lt;/b&gt;。</translation>
    </message>
    <message>
        <source>&lt;b&gt;NaN&lt;/b&gt; in row {0} (“{1}”): {2} weights. That query has no key it may look at; no exponential overflowed.</source>
        <translation>第 {0} 行（“{1}”）出现 &lt;b&gt;NaN&lt;/b&gt;：{2} 个权重。这个查询没有任何可以看的键向量；没有指数溢出。</translation>
    </message>
    <message>
        <source>Masked keys get weight: up to &lt;b&gt;{0}&lt;/b&gt; in row {1} (“{2}”), though every row still sums to 1.</source>
        <translation>被掩盖的键向量得到了权重：第 {1} 行（“{2}”）最多 &lt;b&gt;{0}&lt;/b&gt;，尽管每行之和仍是 1。</translation>
    </message>
    <message>
        <source>Row {0} (“{1}”) sums to &lt;b&gt;{2}&lt;/b&gt;, not 1.</source>
        <translation>第 {0} 行（“{1}”）之和是 &lt;b&gt;{2}&lt;/b&gt;，不是 1。</translation>
    </message>
    <message>
        <source>Every column sums to 1 instead.</source>
        <translation>反倒是每一列之和为 1。</translation>
    </message>
    <message>
        <source>Every score × &lt;b&gt;{0}&lt;/b&gt;: the same scores at another temperature, flatter weights (entropy {1} → {2} bits a row).</source>
        <translation>每个分数 × &lt;b&gt;{0}&lt;/b&gt;：同样的分数换了温度，权重更平（每行熵 {1} → {2} 比特）。</translation>
    </message>
    <message>
        <source>Every score × &lt;b&gt;{0}&lt;/b&gt;: the same scores at another temperature, sharper weights (entropy {1} → {2} bits a row).</source>
        <translation>每个分数 × &lt;b&gt;{0}&lt;/b&gt;：同样的分数换了温度，权重更尖（每行熵 {1} → {2} 比特）。</translation>
    </message>
    <message>
        <source>No error, no NaN, every row sums to 1, but the weights are wrong: up to &lt;b&gt;{0}&lt;/b&gt; off in row {1} (“{2}”).</source>
        <translation>没有报错，没有 NaN，每行之和都是 1，但权重是错的：第 {1} 行（“{2}”）最多差 &lt;b&gt;{0}&lt;/b&gt;。</translation>
    </message>
    <message>
        <source>With N ≠ d_k the same code stops with a shape error.</source>
        <translation>N ≠ d_k 时，同样的代码会因形状错误而停下。</translation>
    </message>
    <message>
        <source>None: the weights equal the right ones to {0} (rounding).</source>
        <translation>没有：权重与正确结果相差不超过 {0}（舍入误差）。</translation>
    </message>
    <message>
        <source>Σ per row: {0}</source>
        <translation>每行之和：{0}</translation>
    </message>
</context>
<context>
    <name>CoreMessages</name>
    <message>
        <source>real transformer mode needs the package {0}: {1}</source>
        <translation>真实模型模式需要软件包 {0}：{1}</translation>
    </message>
    <message>
        <source>real transformer mode needs the packages {0}: {1}</source>
        <translation>真实模型模式需要软件包 {0}：{1}</translation>
    </message>
    <message>
        <source>{0}: {1} bytes is far too large for a config.json</source>
        <translation>{0}：{1} 字节，作为 config.json 太大了</translation>
    </message>
    <message>
        <source>{0}: no such file</source>
        <translation>{0}：文件不存在</translation>
    </message>
    <message>
        <source>{0}: not UTF-8 text</source>
        <translation>{0}：不是 UTF-8 文本</translation>
    </message>
    <message>
        <source>{0}: cannot read it ({1})</source>
        <translation>{0}：无法读取（{1}）</translation>
    </message>
    <message>
        <source>{0}: expected a JSON object</source>
        <translation>{0}：应为一个 JSON 对象</translation>
    </message>
    <message>
        <source>{0}: no model_type{1}; supported: {2}</source>
        <translation>{0}：没有 model_type{1}；支持的类型：{2}</translation>
    </message>
    <message>
        <source>{0}: model_type {1}{2} is not supported; supported: {3}</source>
        <translation>{0}：不支持 model_type {1}{2}；支持的类型：{3}</translation>
    </message>
    <message>
        <source>{0}: position_embedding_type &quot;{1}&quot; is not supported (only &quot;absolute&quot;)</source>
        <translation>{0}：不支持 position_embedding_type &quot;{1}&quot;（只支持 &quot;absolute&quot;）</translation>
    </message>
    <message>
        <source>{0}: a BERT used as a decoder is not supported (only the encoder)</source>
        <translation>{0}：不支持用作解码器的 BERT（只支持编码器）</translation>
    </message>
    <message>
        <source>{0}: hidden_act {1!r} is not supported (supported: {2})</source>
        <translation>{0}：不支持 hidden_act {1!r}（支持：{2}）</translation>
    </message>
    <message>
        <source>{0}: {1} is missing</source>
        <translation>{0}：缺少 {1}</translation>
    </message>
    <message>
        <source>{0}: {1}</source>
        <translation>{0}：{1}</translation>
    </message>
    <message>
        <source>kind &quot;{0}&quot;: a self-attention file (tokens and W_Q, W_K, W_V), not a single-query scenario; open it in the self-attention lab</source>
        <translation>kind &quot;{0}&quot;：这是自注意力文件（词元和 W_Q、W_K、W_V），不是单查询场景；请在自注意力实验页中打开</translation>
    </message>
    <message>
        <source>kind &quot;{0}&quot;: the positions lab&apos;s settings (d, m and n), not a single-query scenario; open it in the positions lab</source>
        <translation>kind &quot;{0}&quot;：这是位置实验页的设置（d、m 和 n），不是单查询场景；请在位置实验页中打开</translation>
    </message>
    <message>
        <source>is a folder: choose another name</source>
        <translation>是一个文件夹：请换一个名称</translation>
    </message>
    <message>
        <source>only {0} of {1} bytes reached the disk</source>
        <translation>只有 {0} / {1} 字节写到了磁盘上</translation>
    </message>
    <message>
        <source>the file is not on the disk after writing it</source>
        <translation>写入后磁盘上找不到该文件</translation>
    </message>
    <message>
        <source>is not a regular file (a pipe, a device or a socket), so it was not read</source>
        <translation>不是普通文件（是管道、设备或套接字），因此没有读取</translation>
    </message>
    <message>
        <source>{0}: &quot;{1}&quot; is not a language (expected {2})</source>
        <translation>{0}：&quot;{1}&quot; 不是可用的语言（应为 {2}）</translation>
    </message>
    <message>
        <source>{0}.{1}: expected a string, got {2}</source>
        <translation>{0}.{1}：应为字符串，实际是 {2}</translation>
    </message>
    <message>
        <source>{0}: expected a string or an object of languages, got {1}</source>
        <translation>{0}：应为字符串或按语言给出的对象，实际是 {1}</translation>
    </message>
    <message>
        <source>{0}: {1} characters, at most {2} allowed</source>
        <translation>{0}：共 {1} 个字符，最多允许 {2} 个</translation>
    </message>
    <message>
        <source>{0}: expected one of {1}, got {2}</source>
        <translation>{0}：应为 {1} 之一，实际是 {2}</translation>
    </message>
    <message>
        <source>{0}: expected &quot;{1}&quot; or a number ≥ 0, got {2}</source>
        <translation>{0}：应为 &quot;{1}&quot; 或 ≥ 0 的数，实际是 {2}</translation>
    </message>
    <message>
        <source>{0}: {1} is out of range (0 to {2:g})</source>
        <translation>{0}：{1} 超出范围（0 到 {2:g}）</translation>
    </message>
    <message>
        <source>{0}: an empty scene (give at least one of {1})</source>
        <translation>{0}：空的场景（至少给出 {1} 中的一项）</translation>
    </message>
    <message>
        <source>{0}.&quot;{1}&quot;: unknown field (allowed: {2})</source>
        <translation>{0}.&quot;{1}&quot;：未知字段（允许：{2}）</translation>
    </message>
    <message>
        <source>{0}.steps: expected a whole number from 1 to {1}, got {2}</source>
        <translation>{0}.steps：应为 1 到 {1} 的整数，实际是 {2}</translation>
    </message>
    <message>
        <source>{0}.pin: expected a name of 1 to {1} characters, got {2}</source>
        <translation>{0}.pin：应为 1 到 {1} 个字符的名称，实际是 {2}</translation>
    </message>
    <message>
        <source>{0}.lab: preset &quot;{1}&quot; opens in lab &quot;{2}&quot;, not in lab &quot;{3}&quot;</source>
        <translation>{0}.lab：示例 &quot;{1}&quot; 在实验 &quot;{2}&quot; 中打开，不能在实验 &quot;{3}&quot; 中</translation>
    </message>
    <message>
        <source>{0}.lab: preset &quot;{1}&quot; is shown on page &quot;{2}&quot; or &quot;{3}&quot;, not in lab &quot;{4}&quot;</source>
        <translation>{0}.lab：示例 &quot;{1}&quot; 显示在页面 &quot;{2}&quot; 或 &quot;{3}&quot; 上，不能在实验 &quot;{4}&quot; 中</translation>
    </message>
    <message>
        <source>{0}.question: {1} is asked in the self-attention lab (add &quot;lab&quot;: &quot;self-attention&quot;)</source>
        <translation>{0}.question：{1} 只能在自注意力实验里提问（请加上 &quot;lab&quot;: &quot;self-attention&quot;）</translation>
    </message>
    <message>
        <source>{0}.question: {1} is asked on the vectors page, not in lab &quot;{2}&quot;</source>
        <translation>{0}.question：{1} 在向量页提问，不能在实验 &quot;{2}&quot; 中</translation>
    </message>
    <message>
        <source>{0}.question: {1} is asked on the vectors page, but this scene shows lab &quot;{2}&quot; (add &quot;lab&quot;: &quot;vectors&quot;)</source>
        <translation>{0}.question：{1} 在向量页提问，但这一场景显示的是实验 &quot;{2}&quot;（请加上 &quot;lab&quot;: &quot;vectors&quot;）</translation>
    </message>
    <message>
        <source>&quot;{0}&quot;: unknown field (allowed in a lecture script: {1})</source>
        <translation>&quot;{0}&quot;：未知字段（讲稿中允许：{1}）</translation>
    </message>
    <message>
        <source>scenes: expected a list of 1 to {0} scenes, got {1}</source>
        <translation>scenes：应为含 1 到 {0} 个场景的列表，实际是 {1}</translation>
    </message>
    <message>
        <source>{0}.question: {1} is asked where d_v = 2 (the output view is a plane); preset &quot;{2}&quot; has d_v = {3}</source>
        <translation>{0}.question：{1} 只能在 d_v = 2 时提问（输出视图是一个平面）；示例 &quot;{2}&quot; 的 d_v = {3}</translation>
    </message>
    <message>
        <source>{0}.question: {1} cannot be asked about preset &quot;{2}&quot;</source>
        <translation>{0}.question：{1} 不能针对示例 &quot;{2}&quot; 提问</translation>
    </message>
    <message>
        <source>padding: expected a list of token positions, got {0}</source>
        <translation>padding：应为词元位置的列表，得到的是 {0}</translation>
    </message>
    <message>
        <source>padding: {0} positions, more than the {1} tokens</source>
        <translation>padding：共 {0} 个位置，多于 {1} 个词元</translation>
    </message>
    <message>
        <source>padding[{0}]: expected a whole number (a token position from 0), got {1}</source>
        <translation>padding[{0}]：应为整数（从 0 起的词元位置），得到的是 {1}</translation>
    </message>
    <message>
        <source>padding[{0}]: position {1} is out of range (there are {2} tokens, from 0 to {3})</source>
        <translation>padding[{0}]：位置 {1} 超出范围（共有 {2} 个词元，位置从 0 到 {3}）</translation>
    </message>
    <message>
        <source>padding[{0}]: position {1} is given twice</source>
        <translation>padding[{0}]：位置 {1} 出现了两次</translation>
    </message>
    <message>
        <source>padding: every token is padded; at least one must stay for the queries to look at</source>
        <translation>padding：所有词元都被填充了；至少要留下一个供查询关注</translation>
    </message>
    <message>
        <source>padding: with the causal mask the first token (position 0) cannot be padded: its row would have no key left to look at</source>
        <translation>padding：开启因果掩码时第一个词元（位置 0）不能被填充：它那一行将没有任何键向量可以关注</translation>
    </message>
    <message>
        <source>{0}: expected rows of {1} numbers ({2}), got {3}</source>
        <translation>{0}：每行应有 {1} 个数（{2}），实际为 {3}</translation>
    </message>
    <message>
        <source>heads: expected a whole number, got {0}</source>
        <translation>heads：应为整数，实际为 {0}</translation>
    </message>
    <message>
        <source>heads: expected 1 to {0} heads, got {1}</source>
        <translation>heads：应为 1 到 {0} 个头，实际为 {1}</translation>
    </message>
    <message>
        <source>heads: d_model = {0} is not divisible by h = {1} (each head gets d_model / h columns; h could be {2})</source>
        <translation>heads：d_model = {0} 不能被 h = {1} 整除（每个头得到 d_model / h 列；h 可以是 {2}）</translation>
    </message>
    <message>
        <source>d_model: {0} is not divisible by h = {1} (d_model must be a multiple of h)</source>
        <translation>d_model：{0} 不能被 h = {1} 整除（d_model 必须是 h 的倍数）</translation>
    </message>
    <message>
        <source>seed: expected a whole number ≥ 0, got {0!r}</source>
        <translation>seed：应为 ≥ 0 的整数，实际为 {0!r}</translation>
    </message>
    <message>
        <source>head {0} is out of range (there are {1} heads)</source>
        <translation>头 {0} 超出范围（共有 {1} 个头）</translation>
    </message>
    <message>
        <source>embeddings: expected {0} rows (one per token)</source>
        <translation>embeddings：应有 {0} 行（每个词元一行）</translation>
    </message>
    <message>
        <source>embeddings: expected rows of 1 to {0} numbers (d_model), got {1}</source>
        <translation>embeddings：每行应有 1 到 {0} 个数（d_model），实际为 {1}</translation>
    </message>
    <message>
        <source>&quot;{0}&quot;: unknown field (allowed in a multi-head file: {1})</source>
        <translation>&quot;{0}&quot;：未知字段（多头文件允许：{1}）</translation>
    </message>
    <message>
        <source>kind: expected &quot;{0}&quot;</source>
        <translation>kind：应为 &quot;{0}&quot;</translation>
    </message>
    <message>
        <source>pins: expected a list of at most {0} pins, got {1}</source>
        <translation>pins：最多 {0} 个固定快照，实际为 {1}</translation>
    </message>
    <message>
        <source>{0}.name: expected a string, got {1}</source>
        <translation>{0}.name：应为字符串，实际为{1}</translation>
    </message>
    <message>
        <source>{0}.number: expected a whole number from 1 to {1} that no other pin has, got {2}</source>
        <translation>{0}.number：应为 1 到 {1} 之间且未被其他快照使用的整数，实际为 {2}</translation>
    </message>
    <message>
        <source>{0}: &quot;{1}&quot;: missing</source>
        <translation>{0}：缺少 &quot;{1}&quot;</translation>
    </message>
    <message>
        <source>{0}.{1}</source>
        <translation>{0}.{1}</translation>
    </message>
    <message>
        <source>d: expected an even whole number from 2 to {0} (pairs of sin and cos), got {1!r}</source>
        <translation>d：应为 2 到 {0} 之间的偶数（sin 与 cos 成对），实际为 {1!r}</translation>
    </message>
    <message>
        <source>{0}: expected a whole number from 0 to {1}, got {2!r}</source>
        <translation>{0}：应为 0 到 {1} 之间的整数，实际为 {2!r}</translation>
    </message>
    <message>
        <source>method: expected one of {0}, got {1!r}</source>
        <translation>method：应为 {0} 之一，实际为 {1!r}</translation>
    </message>
    <message>
        <source>pair: expected 0 to {0}, got {1!r}</source>
        <translation>pair：应为 0 到 {0}，实际为 {1!r}</translation>
    </message>
    <message>
        <source>{0}: tensor {1} holds {2}; only F64, F32 and F16 tensors can be read</source>
        <translation>{0}：张量 {1} 的类型是 {2}；只能读取 F64、F32 和 F16 张量</translation>
    </message>
    <message>
        <source>{0}: tensor {1}: expected shape {2}, got {3} (does config.json belong to these weights?)</source>
        <translation>{0}：张量 {1}：形状应为 {2}，却是 {3}（config.json 与这些权重是否配套？）</translation>
    </message>
    <message>
        <source>&quot;{0}&quot;: unknown field (allowed in a positions file: {1})</source>
        <translation>&quot;{0}&quot;：未知字段（位置文件允许：{1}）</translation>
    </message>
    <message>
        <source>the sequence is {0} tokens long, and this model takes at most {1}: no token can be added</source>
        <translation>序列已有 {0} 个词元，而这个模型最多接受 {1} 个：不能再添加词元</translation>
    </message>
    <message>
        <source>token id {0} is not in the vocabulary (0–{1})</source>
        <translation>词元 id {0} 不在词表中（0–{1}）</translation>
    </message>
    <message>
        <source>{0}: {1} is out of range ({2} to {3})</source>
        <translation>{0}：{1} 超出范围（{2} 到 {3}）</translation>
    </message>
    <message>
        <source>{0}: expected true or false, got {1}</source>
        <translation>{0}：应为 true 或 false，却是{1}</translation>
    </message>
    <message>
        <source>{0}: {1} is out of range (expected a small positive number below 1)</source>
        <translation>{0}：{1} 超出范围（应为小于 1 的小正数）</translation>
    </message>
    <message>
        <source>&quot;{0}&quot;: unknown field (allowed in a recovery file: {1})</source>
        <translation>&quot;{0}&quot;：未知字段（恢复文件允许：{1}）</translation>
    </message>
    <message>
        <source>pages: expected an object with one scene per page, got {0}</source>
        <translation>pages：应为每页一个场景的对象，实际为{0}</translation>
    </message>
    <message>
        <source>pages: &quot;{0}&quot; is not a page (expected one of {1})</source>
        <translation>pages：&quot;{0}&quot; 不是页面（应为 {1} 之一）</translation>
    </message>
    <message>
        <source>pages: the scene under &quot;{0}&quot; is of another kind</source>
        <translation>pages：&quot;{0}&quot; 下的场景属于另一种类</translation>
    </message>
    <message>
        <source>page: expected one of {0}, got {1}</source>
        <translation>page：应为 {0} 之一，实际为{1}</translation>
    </message>
    <message>
        <source>{0}: expected a list of strings, got {1}</source>
        <translation>{0}：应为字符串列表，却是{1}</translation>
    </message>
    <message>
        <source>{0}: hidden_size {1} is not a multiple of num_attention_heads {2}</source>
        <translation>{0}：hidden_size {1} 不是 num_attention_heads {2} 的整数倍</translation>
    </message>
    <message>
        <source>{0}: no {1} tensor: not a BERT checkpoint</source>
        <translation>{0}：没有 {1} 张量，不是 BERT 检查点</translation>
    </message>
    <message>
        <source>{0}: tensor {1} is missing</source>
        <translation>{0}：缺少张量 {1}</translation>
    </message>
    <message>
        <source>{0}: tensor {1} holds {2}, expected floating-point numbers</source>
        <translation>{0}：张量 {1} 的类型是 {2}，应为浮点数</translation>
    </message>
    <message>
        <source>{0}: {1} (does config.json belong to these weights?)</source>
        <translation>{0}：{1}（config.json 与这些权重是否配套？）</translation>
    </message>
    <message>
        <source>{0}: {1} holds NaN or infinite numbers</source>
        <translation>{0}：{1} 含有 NaN 或无穷大</translation>
    </message>
    <message>
        <source>{0}: cannot read the weights ({1})</source>
        <translation>{0}：无法读取权重（{1}）</translation>
    </message>
    <message>
        <source>{0}: not a tokenizers tokenizer.json ({1})</source>
        <translation>{0}：不是 tokenizers 的 tokenizer.json（{1}）</translation>
    </message>
    <message>
        <source>layer {0} is out of range: the model has {1} layers (0–{2})</source>
        <translation>第 {0} 层超出范围：模型共有 {1} 层（0–{2}）</translation>
    </message>
    <message>
        <source>head {0} is out of range: each layer has {1} heads (0–{2})</source>
        <translation>第 {0} 个头超出范围：每层有 {1} 个头（0–{2}）</translation>
    </message>
    <message>
        <source>the text is not valid Unicode (character {0} is a lone surrogate)</source>
        <translation>文本不是有效的 Unicode（第 {0} 个字符是孤立的代理项）</translation>
    </message>
    <message>
        <source>cannot tokenize the text ({0})</source>
        <translation>无法对这段文字分词（{0}）</translation>
    </message>
    <message>
        <source>the tokenizer made no tokens of this text</source>
        <translation>分词器没有从这段文字得到任何词元</translation>
    </message>
    <message>
        <source>the text is {0} tokens long; this model takes at most {1}</source>
        <translation>这段文字有 {0} 个词元；该模型最多接受 {1} 个</translation>
    </message>
    <message>
        <source>the tokenizer gave id {0}, but the model knows only {1} tokens: tokenizer.json does not belong to this model</source>
        <translation>分词器给出了编号 {0}，但模型只认识 {1} 个词元：tokenizer.json 与该模型不配套</translation>
    </message>
    <message>
        <source>the model cannot take these tokens ({0})</source>
        <translation>模型无法接受这些词元（{0}）</translation>
    </message>
    <message>
        <source>{0}: no such folder</source>
        <translation>{0}：文件夹不存在</translation>
    </message>
    <message>
        <source>{0}: not a folder (give the folder that holds {1})</source>
        <translation>{0}：不是文件夹（请给出包含 {1} 的文件夹）</translation>
    </message>
    <message>
        <source>; only pytorch_model.bin is there, which needs PyTorch to read</source>
        <translation>；只有 pytorch_model.bin，读取它需要 PyTorch</translation>
    </message>
    <message>
        <source>; only vocab.txt is there (a newer copy of the model has tokenizer.json)</source>
        <translation>；只有 vocab.txt（较新的模型副本带有 tokenizer.json）</translation>
    </message>
    <message>
        <source>{0}: {1} is missing{2} (a model folder holds {3})</source>
        <translation>{0}：缺少 {1}{2}（模型文件夹应包含 {3}）</translation>
    </message>
    <message>
        <source>{0}: {1} tokens, but the model has only {2}: the files do not belong together</source>
        <translation>{0}：{1} 个词元，但模型只有 {2} 个：这些文件不配套</translation>
    </message>
    <message>
        <source>unknown preset {0!r} (known: {1})</source>
        <translation>没有名为 {0!r} 的示例（已有：{1}）</translation>
    </message>
    <message>
        <source>{0}: expected numbers in equal-length rows</source>
        <translation>{0}：应为各行长度相同的数字</translation>
    </message>
    <message>
        <source>{0}: expected numbers, got a string</source>
        <translation>{0}：应为数字，却是字符串</translation>
    </message>
    <message>
        <source>{0}: expected a number, got {1}</source>
        <translation>{0}：应为一个数字，却是{1}</translation>
    </message>
    <message>
        <source>{0}: expected a whole number, got true/false</source>
        <translation>{0}：应为整数，却是 true/false</translation>
    </message>
    <message>
        <source>{0}: expected a whole number, got {1}</source>
        <translation>{0}：应为整数，却是{1}</translation>
    </message>
    <message>
        <source>{0}: NaN is not allowed (every number must be finite)</source>
        <translation>{0}：不允许 NaN（每个数都必须是有限值）</translation>
    </message>
    <message>
        <source>{0}: infinity is not allowed (every number must be finite)</source>
        <translation>{0}：不允许无穷大（每个数都必须是有限值）</translation>
    </message>
    <message>
        <source>{0}: character {1} is not valid Unicode (a lone surrogate)</source>
        <translation>{0}：第 {1} 个字符不是有效的 Unicode（孤立的代理项）</translation>
    </message>
    <message>
        <source>query: expected 1 to {0} numbers</source>
        <translation>query：应为 1 到 {0} 个数字</translation>
    </message>
    <message>
        <source>keys: expected 1 to {0} rows</source>
        <translation>keys：应为 1 到 {0} 行</translation>
    </message>
    <message>
        <source>keys: expected rows of {0} numbers (d_k = {1}), got {2}</source>
        <translation>keys：每行应有 {0} 个数字（d_k = {1}），实际为 {2} 个</translation>
    </message>
    <message>
        <source>values: expected {0} rows, one per key</source>
        <translation>values：应为 {0} 行，每个键向量一行</translation>
    </message>
    <message>
        <source>values: expected rows of 1 to {0} numbers</source>
        <translation>values：每行应有 1 到 {0} 个数字</translation>
    </message>
    <message>
        <source>labels: expected {0} labels, one per key, got {1}</source>
        <translation>labels：应为 {0} 个标签，每个键向量一个，实际为 {1} 个</translation>
    </message>
    <message>
        <source>labels[{0}]: expected a string</source>
        <translation>labels[{0}]：应为字符串</translation>
    </message>
    <message>
        <source>labels[{0}]: {1} characters, at most {2} are allowed</source>
        <translation>labels[{0}]：{1} 个字符，最多允许 {2} 个</translation>
    </message>
    <message>
        <source>scale: expected &quot;{0}&quot; or a finite number</source>
        <translation>scale：应为 &quot;{0}&quot; 或一个有限的数</translation>
    </message>
    <message>
        <source>not a usable number: an integer with {0} digits</source>
        <translation>无法使用的数字：一个 {0} 位的整数</translation>
    </message>
    <message>
        <source>{0}: duplicate key (each field may appear only once)</source>
        <translation>{0}：重复的字段名（每个字段只能出现一次）</translation>
    </message>
    <message>
        <source>not a usable number</source>
        <translation>无法使用的数字</translation>
    </message>
    <message>
        <source>the file name is empty</source>
        <translation>文件名为空</translation>
    </message>
    <message>
        <source>{0}: expected a list of rows</source>
        <translation>{0}：应为由若干行组成的列表</translation>
    </message>
    <message>
        <source>{0}: expected a list of numbers, got {1}</source>
        <translation>{0}：应为数字列表，却是{1}</translation>
    </message>
    <message>
        <source>{0}: expected {1} numbers ({2} = {3}), got {4}</source>
        <translation>{0}：应有 {1} 个数字（{2} = {3}），实际为 {4} 个</translation>
    </message>
    <message>
        <source>{0}: expected 1 to {1} numbers, got {2}</source>
        <translation>{0}：应有 1 到 {1} 个数字，实际为 {2} 个</translation>
    </message>
    <message>
        <source>{0}[{1}]: expected a number, got {2}</source>
        <translation>{0}[{1}]：应为数字，却是{2}</translation>
    </message>
    <message>
        <source>{0}[{1}]: {2} is out of range (|x| must be at most {3:g})</source>
        <translation>{0}[{1}]：{2} 超出范围（|x| 不能大于 {3:g}）</translation>
    </message>
    <message>
        <source>{0}[{1}]: NaN is not allowed (every number must be finite)</source>
        <translation>{0}[{1}]：不允许 NaN（每个数都必须是有限值）</translation>
    </message>
    <message>
        <source>{0}[{1}]: infinity is not allowed (every number must be finite)</source>
        <translation>{0}[{1}]：不允许无穷大（每个数都必须是有限值）</translation>
    </message>
    <message>
        <source>true/false</source>
        <translation> true/false</translation>
    </message>
    <message>
        <source>null</source>
        <translation> null</translation>
    </message>
    <message>
        <source>a string</source>
        <translation>字符串</translation>
    </message>
    <message>
        <source>a list</source>
        <translation>列表</translation>
    </message>
    <message>
        <source>an object</source>
        <translation>对象</translation>
    </message>
    <message>
        <source>expected a JSON object at the top level, got {0}</source>
        <translation>最外层应为一个 JSON 对象，却是{0}</translation>
    </message>
    <message>
        <source>&quot;{0}&quot;: unknown field (allowed: {1})</source>
        <translation>&quot;{0}&quot;：未知字段（允许的字段：{1}）</translation>
    </message>
    <message>
        <source>format: expected &quot;{0}&quot;, got {1}</source>
        <translation>format：应为 &quot;{0}&quot;，实际为 {1}</translation>
    </message>
    <message>
        <source>&quot;{0}&quot;: missing</source>
        <translation>缺少 &quot;{0}&quot;</translation>
    </message>
    <message>
        <source>keys: expected a list of 1 to {0} rows, got {1}</source>
        <translation>keys：应为含 1 到 {0} 行的列表，实际为 {1}</translation>
    </message>
    <message>
        <source>values: expected {0} rows (one per key), got {1}</source>
        <translation>values：应为 {0} 行（每个键向量一行），实际为 {1}</translation>
    </message>
    <message>
        <source>labels: expected {0} strings (one per key), got {1}</source>
        <translation>labels：应为 {0} 个字符串（每个键向量一个），实际为 {1}</translation>
    </message>
    <message>
        <source>labels[{0}]: expected a string, got {1}</source>
        <translation>labels[{0}]：应为字符串，却是{1}</translation>
    </message>
    <message>
        <source>title: expected a string, got {0}</source>
        <translation>title：应为字符串，却是{0}</translation>
    </message>
    <message>
        <source>description: expected a string, got {0}</source>
        <translation>description：应为字符串，却是{0}</translation>
    </message>
    <message>
        <source>scale: expected &quot;{0}&quot; or a number ≥ 0, got {1}</source>
        <translation>scale：应为 &quot;{0}&quot; 或一个 ≥ 0 的数，却是{1}</translation>
    </message>
    <message>
        <source>scale: {0} is out of range (0 to {1:g})</source>
        <translation>scale：{0} 超出范围（0 到 {1:g}）</translation>
    </message>
    <message>
        <source>a number</source>
        <translation>数字</translation>
    </message>
    <message>
        <source>{0}: expected a list of {1} numbers, got {2}</source>
        <translation>{0}：应为 {1} 个数字的列表，却是 {2}</translation>
    </message>
    <message>
        <source>{0}[{1}]: expected a finite number, got {2}</source>
        <translation>{0}[{1}]：应为有限的数字，却是 {2}</translation>
    </message>
    <message>
        <source>{0}: expected an object, got {1}</source>
        <translation>{0}：应为对象，却是 {1}</translation>
    </message>
    <message>
        <source>{0}: &quot;{1}&quot;: unknown field (allowed: {2})</source>
        <translation>{0}：“{1}”：未知字段（允许：{2}）</translation>
    </message>
    <message>
        <source>{0}.after: expected one of {1}, got {2}</source>
        <translation>{0}.after：应为 {1} 之一，却是 {2}</translation>
    </message>
    <message>
        <source>{0}.factor: only with &quot;after&quot;: &quot;factor&quot;</source>
        <translation>{0}.factor：只能与 &quot;after&quot;: &quot;factor&quot; 一起使用</translation>
    </message>
    <message>
        <source>{0}: states nothing (give scores, scaled_scores, weights, output or cosines)</source>
        <translation>{0}：没有陈述任何数值（请给出 scores、scaled_scores、weights、output 或 cosines）</translation>
    </message>
    <message>
        <source>{0}.cosines: only a single-query file has them</source>
        <translation>{0}.cosines：只有单查询文件才有</translation>
    </message>
    <message>
        <source>{0}.row: expected a whole number from 0 to {1}, got {2}</source>
        <translation>{0}.row：应为 0 到 {1} 之间的整数，却是 {2}</translation>
    </message>
    <message>
        <source>{0}.row: only a self-attention file has rows</source>
        <translation>{0}.row：只有自注意力文件才有行</translation>
    </message>
    <message>
        <source>{0}.tolerance: expected a number above 0 and at most 1, got {1}</source>
        <translation>{0}.tolerance：应为大于 0 且不超过 1 的数字，却是 {1}</translation>
    </message>
    <message>
        <source>claims: expected a list of at most {0} claims, got {1}</source>
        <translation>claims：应为最多 {0} 条声明的列表，却是 {1}</translation>
    </message>
    <message>
        <source>{0}: {1} is out of range (|x| must be at most {2:g})</source>
        <translation>{0}：{1} 超出范围（|x| 不能大于 {2:g}）</translation>
    </message>
    <message>
        <source>file is larger than {0} MiB</source>
        <translation>文件大于 {0} MiB</translation>
    </message>
    <message>
        <source>file is empty</source>
        <translation>文件是空的</translation>
    </message>
    <message>
        <source>{0} lists or objects, nested too deeply or far more than a scenario holds (at most {1} keys and values)</source>
        <translation>{0} 个列表或对象：嵌套太深，或者远多于一个场景所能包含的（最多 {1} 个键向量和值向量）</translation>
    </message>
    <message>
        <source>&quot;{0}&quot;: unknown field</source>
        <translation>&quot;{0}&quot;：未知字段</translation>
    </message>
    <message>
        <source>{0} fields or colons, far more than a scenario holds</source>
        <translation>{0} 个字段或冒号，远多于一个场景所能包含的</translation>
    </message>
    <message>
        <source>not UTF-8 text (byte {0})</source>
        <translation>不是 UTF-8 文本（第 {0} 个字节）</translation>
    </message>
    <message>
        <source>JSON is nested too deeply</source>
        <translation>JSON 嵌套太深</translation>
    </message>
    <message>
        <source>not valid JSON: {0} (line {1}, column {2})</source>
        <translation>不是有效的 JSON：{0}（第 {1} 行，第 {2} 列）</translation>
    </message>
    <message>
        <source>is a folder, not a scenario file</source>
        <translation>这是文件夹，不是场景文件</translation>
    </message>
    <message>
        <source>no such file</source>
        <translation>文件不存在</translation>
    </message>
    <message>
        <source>permission denied</source>
        <translation>没有权限</translation>
    </message>
    <message>
        <source>cannot read: {0}</source>
        <translation>无法读取：{0}</translation>
    </message>
    <message>
        <source>the file would take {0:.0f} MiB, more than the {1} MiB a scenario file may have; use fewer keys or smaller dimensions</source>
        <translation>文件将占 {0:.0f} MiB，超过场景文件允许的 {1} MiB；请减少键向量的数量或降低维度</translation>
    </message>
    <message>
        <source>{0}: expected a list of strings, got a string</source>
        <translation>{0}：应为字符串列表，却是一个字符串</translation>
    </message>
    <message>
        <source>{0}: expected 1 to {1} tokens, got {2}</source>
        <translation>{0}：应有 1 到 {1} 个词元，实际为 {2}</translation>
    </message>
    <message>
        <source>{0}: {1} characters, a token has 1 to {2}</source>
        <translation>{0}：{1} 个字符，词元应有 1 到 {2} 个字符</translation>
    </message>
    <message>
        <source>{0}: there is no cell ({1}, {2}) in {3} × {4}</source>
        <translation>{0}：{3} × {4} 中没有单元格 ({1}, {2})</translation>
    </message>
    <message>
        <source>target token index {0} is out of range (there are {1} target tokens)</source>
        <translation>目标词元序号 {0} 超出范围（共有 {1} 个目标词元）</translation>
    </message>
    <message>
        <source>unknown side {0!r} (expected one of {1})</source>
        <translation>未知的一侧 {0!r}（应为 {1} 之一）</translation>
    </message>
    <message>
        <source>{0}: expected a list of 1 to {1} strings, got {2}</source>
        <translation>{0}：应为含 1 到 {1} 个字符串的列表，实际为 {2}</translation>
    </message>
    <message>
        <source>&quot;{0}&quot;: unknown field (allowed in a cross-attention file: {1})</source>
        <translation>&quot;{0}&quot;：未知字段（交叉注意力文件允许：{1}）</translation>
    </message>
    <message>
        <source>kind &quot;{0}&quot;: a cross-attention file (a source and a target sentence), not a single-query scenario; open it in the cross-attention lab</source>
        <translation>kind &quot;{0}&quot;：这是交叉注意力文件（一个源句和一个目标句），不是单查询场景；请在交叉注意力实验中打开</translation>
    </message>
    <message>
        <source>is not a regular file (a device, pipe or socket): choose another name</source>
        <translation>不是普通文件（而是设备、管道或套接字）：请换一个文件名</translation>
    </message>
    <message>
        <source>cannot reach {0}: is this computer online? ({1})</source>
        <translation>无法连接 {0}：这台电脑联网了吗？（{1}）</translation>
    </message>
    <message>
        <source>{0}: no such model on {1}</source>
        <translation>{0}：{1} 上没有这个模型</translation>
    </message>
    <message>
        <source>{0}: the Hub answered {1}</source>
        <translation>{0}：Hub 的回复是 {1}</translation>
    </message>
    <message>
        <source>downloading needs the optional package huggingface_hub: {0}</source>
        <translation>下载需要可选软件包 huggingface_hub：{0}</translation>
    </message>
    <message>
        <source>{0}: the model has no {1}, which this program needs</source>
        <translation>{0}：该模型没有本程序需要的 {1}</translation>
    </message>
    <message>
        <source>{0}×{1} pixels is out of range ({2}×{2} to {3}×{4})</source>
        <translation>{0}×{1} 像素超出范围（{2}×{2} 至 {3}×{4}）</translation>
    </message>
    <message>
        <source>no frame was recorded</source>
        <translation>没有录下任何一帧</translation>
    </message>
    <message>
        <source>the written file is not an MP4 video</source>
        <translation>写出的文件不是 MP4 视频</translation>
    </message>
    <message>
        <source>the written file cannot be read back: {0}</source>
        <translation>写出的文件无法读回：{0}</translation>
    </message>
    <message>
        <source>the written file holds {0} frames of {1}×{2}, not {3} of {4}×{5}</source>
        <translation>写出的文件含 {0} 帧 {1}×{2}，而不是 {3} 帧 {4}×{5}</translation>
    </message>
    <message>
        <source>the picture must be {0} to {1} pixels wide, not {2}</source>
        <translation>图片宽度必须在 {0} 到 {1} 像素之间，而不是 {2}</translation>
    </message>
    <message>
        <source>at {0} pixels wide this figure would be {1} high, more than {2}: choose at most {3}</source>
        <translation>宽 {0} 像素时这张图会高 {1} 像素，超过 {2}：宽度最多选 {3}</translation>
    </message>
    <message>
        <source>base: expected a number above 1 and at most {0:g}, got {1!r}</source>
        <translation>base：应为大于 1、不超过 {0:g} 的数，实际为 {1!r}</translation>
    </message>
    <message>
        <source>{0}: tensor {1} holds {2}; only F64, F32, F16 and BF16 tensors can be read</source>
        <translation>{0}：张量 {1} 的类型是 {2}；只能读取 F64、F32、F16 和 BF16 张量</translation>
    </message>
    <message>
        <source>this model has no rotary position embedding: its q and k are not rotated</source>
        <translation>此模型没有旋转位置编码（RoPE）：它的 q 和 k 不经旋转</translation>
    </message>
    <message>
        <source>SHA-256</source>
        <translation>SHA-256</translation>
    </message>
    <message>
        <source>git blob id</source>
        <translation>git blob 编号</translation>
    </message>
    <message>
        <source>{0}: the listing gives {1} the size {2}, not a whole number of bytes from 0 to {3}</source>
        <translation>{0}：文件列表给出 {1} 的大小为 {2}，不是 0 到 {3} 之间的整数字节数</translation>
    </message>
    <message>
        <source>{0}: the listing gives no SHA-256 for {1}, so it cannot be verified</source>
        <translation>{0}：文件列表没有给出 {1} 的 SHA-256，无法校验</translation>
    </message>
    <message>
        <source>{0}: the listing gives {1} the hash {2}, which is not a {3}</source>
        <translation>{0}：文件列表给出 {1} 的哈希为 {2}，不是{3}</translation>
    </message>
    <message>
        <source>SHA-256 (64 hexadecimal digits)</source>
        <translation>SHA-256（64 位十六进制数字）</translation>
    </message>
    <message>
        <source>{0}: the listing gives {1} two sizes, {2} and {3}</source>
        <translation>{0}：文件列表给出 {1} 的两个大小：{2} 和 {3}</translation>
    </message>
    <message>
        <source>git blob id (40 hexadecimal digits)</source>
        <translation>git blob 编号（40 位十六进制数字）</translation>
    </message>
    <message>
        <source>{0}: the Hub&apos;s listing is not usable ({1})</source>
        <translation>{0}：Hub 的文件列表无法使用（{1}）</translation>
    </message>
    <message>
        <source>not valid JSON</source>
        <translation>不是有效的 JSON</translation>
    </message>
    <message>
        <source>not a JSON object</source>
        <translation>不是 JSON 对象</translation>
    </message>
    <message>
        <source>{0}: the Hub&apos;s listing gives {1} as the commit, which is not a commit id (40 hexadecimal digits)</source>
        <translation>{0}：Hub 的文件列表给出的提交是 {1}，不是提交编号（40 位十六进制数字）</translation>
    </message>
    <message>
        <source>it has no list of files</source>
        <translation>其中没有文件列表</translation>
    </message>
    <message>
        <source>{0}: {1}: the Hub sent nothing for {2:g} s</source>
        <translation>{0}：{1}：Hub 已有 {2:g} 秒没有发送任何数据</translation>
    </message>
    <message>
        <source>{0}: {1}: the Hub redirected to {2}, which is refused (only http and https, never from https to http)</source>
        <translation>{0}：{1}：Hub 重定向到 {2}，已拒绝（只接受 http 和 https，且不能从 https 转到 http）</translation>
    </message>
    <message>
        <source>{0}: {1}: more than {2} redirects</source>
        <translation>{0}：{1}：重定向超过 {2} 次</translation>
    </message>
    <message>
        <source>{0}: the download stopped ({1})</source>
        <translation>{0}：下载中断（{1}）</translation>
    </message>
    <message>
        <source>the listing</source>
        <translation>文件列表</translation>
    </message>
    <message>
        <source>{0}: no such model on {1}, or it needs a login (a gated or private model)</source>
        <translation>{0}：{1} 上没有这个模型，或者需要登录（受限或私有模型）</translation>
    </message>
    <message>
        <source>it is larger than 16 MB</source>
        <translation>它大于 16 MB</translation>
    </message>
    <message>
        <source>{0}: {1}: the Hub answered {2}</source>
        <translation>{0}：{1}：Hub 的回复是 {2}</translation>
    </message>
    <message>
        <source>{0}: {1}: the Hub sends {2} bytes, the listing says {3}</source>
        <translation>{0}：{1}：Hub 发送 {2} 字节，文件列表说是 {3}</translation>
    </message>
    <message>
        <source>{0}: {1}: the Hub sent more than the listing&apos;s {2} bytes</source>
        <translation>{0}：{1}：Hub 发送的数据超过文件列表所说的 {2} 字节</translation>
    </message>
    <message>
        <source>{0}: {1}: the Hub sent {2} bytes, the listing says {3}</source>
        <translation>{0}：{1}：Hub 发送了 {2} 字节，文件列表说是 {3}</translation>
    </message>
    <message>
        <source>{0}: {1} does not match the listing&apos;s {2}: these are not the bytes the Hub lists, and nothing was kept</source>
        <translation>{0}：{1} 与文件列表中的 {2} 不符：收到的内容不是 Hub 所列的文件，什么都没有保留</translation>
    </message>
    <message>
        <source>{0}: {1} is in the cache but leads outside it; nothing was written</source>
        <translation>{0}：{1} 位于缓存中，却指向缓存之外；没有写入任何内容</translation>
    </message>
    <message>
        <source>{0}: cannot write into the cache {1} ({2})</source>
        <translation>{0}：无法写入缓存 {1}（{2}）</translation>
    </message>
    <message>
        <source>{0} is not a Hub model id (expected NAME or ORGANISATION/NAME: letters, digits, &apos;-&apos;, &apos;_&apos; and &apos;.&apos;)</source>
        <translation>{0} 不是 Hub 模型编号（应为 名称 或 组织/名称：字母、数字、“-”、“_”和“.”）</translation>
    </message>
    <message>
        <source>HF_ENDPOINT {0} is not an http or https address</source>
        <translation>HF_ENDPOINT {0} 不是 http 或 https 地址</translation>
    </message>
    <message>
        <source>downloading is switched off on this computer (HF_HUB_OFFLINE is set)</source>
        <translation>这台电脑关闭了下载（设置了 HF_HUB_OFFLINE）</translation>
    </message>
    <message>
        <source>{0}: not enough free space in {1}: the model needs {2}, and {3} are free</source>
        <translation>{0}：{1} 的剩余空间不足：模型需要 {2}，只剩 {3}</translation>
    </message>
    <message>
        <source>top-k: expected a whole number from 1 to {0}, got {1}</source>
        <translation>top-k：应为 1 到 {0} 的整数，却是 {1}</translation>
    </message>
    <message>
        <source>{0}: activation_function {1!r} is not supported (supported: {2})</source>
        <translation>{0}：不支持 activation_function {1!r}（支持：{2}）</translation>
    </message>
    <message>
        <source>{0}: scale_attn_weights false is not supported (only the scaling by 1/√d_k)</source>
        <translation>{0}：不支持 scale_attn_weights 为 false（只支持按 1/√d_k 缩放）</translation>
    </message>
    <message>
        <source>{0}: {1} true is not supported (only the original GPT-2 layout)</source>
        <translation>{0}：不支持 {1} 为 true（只支持原始的 GPT-2 结构）</translation>
    </message>
    <message>
        <source>{0}: n_embd {1} is not a multiple of n_head {2}</source>
        <translation>{0}：n_embd {1} 不是 n_head {2} 的整数倍</translation>
    </message>
    <message>
        <source>{0}: no {1} tensor: not a GPT-2 checkpoint</source>
        <translation>{0}：没有 {1} 张量：不是 GPT-2 检查点</translation>
    </message>
    <message>
        <source>{0}: {1} is out of range</source>
        <translation>{0}：{1} 超出范围</translation>
    </message>
    <message>
        <source>{0}: expected an object or null, got {1}</source>
        <translation>{0}：应为对象或 null，实际为 {1}</translation>
    </message>
    <message>
        <source>{0}: {1} is not supported (only {2})</source>
        <translation>{0}：不支持 {1}（只支持 {2}）</translation>
    </message>
    <message>
        <source>{0}: RoPE of type {1} is not supported (only the original RoPE, &quot;default&quot;, without scaling)</source>
        <translation>{0}：不支持类型为 {1} 的 RoPE（只支持原始的、不缩放的 RoPE，即 &quot;default&quot;）</translation>
    </message>
    <message>
        <source>{0}: partial_rotary_factor {1} is not supported (RoPE on every dimension only)</source>
        <translation>{0}：不支持 partial_rotary_factor {1}（只支持在每个维度上施加 RoPE）</translation>
    </message>
    <message>
        <source>{0}: {1} is out of range (above 1, at most {2:g})</source>
        <translation>{0}：{1} 超出范围（应大于 1，至多 {2:g}）</translation>
    </message>
    <message>
        <source>{0}: rope_interleaved true is not supported (only RoPE on the two halves of each head, as transformers computes it)</source>
        <translation>{0}：不支持 rope_interleaved 为 true（只支持像 transformers 那样在每个头的前后两半上施加 RoPE）</translation>
    </message>
    <message>
        <source>{0}: use_sliding_window true is not supported (only full causal attention)</source>
        <translation>{0}：不支持 use_sliding_window 为 true（只支持完整的因果注意力）</translation>
    </message>
    <message>
        <source>{0}: layer type {1} is not supported (only &quot;full_attention&quot;)</source>
        <translation>{0}：不支持层类型 {1}（只支持 &quot;full_attention&quot;）</translation>
    </message>
    <message>
        <source>{0}: head_dim {1} is odd; RoPE turns pairs of numbers and needs an even head size</source>
        <translation>{0}：head_dim {1} 是奇数；RoPE 成对旋转数值，需要偶数的头维度</translation>
    </message>
    <message>
        <source>{0}: num_attention_heads {1} is not a multiple of num_key_value_heads {2}</source>
        <translation>{0}：num_attention_heads {1} 不是 num_key_value_heads {2} 的整数倍</translation>
    </message>
    <message>
        <source>{0}: no {1} tensor: not a Llama-family checkpoint</source>
        <translation>{0}：没有 {1} 张量：不是 Llama 系列的检查点</translation>
    </message>
    <message>
        <source>{0}: not a safetensors file ({1} bytes)</source>
        <translation>{0}：不是 safetensors 文件（{1} 字节）</translation>
    </message>
    <message>
        <source>{0}: the header claims {1} bytes; at most {2} are accepted</source>
        <translation>{0}：文件头声称有 {1} 字节；最多只接受 {2} 字节</translation>
    </message>
    <message>
        <source>{0}: the header claims {1} bytes, but the file has only {2}</source>
        <translation>{0}：文件头声称有 {1} 字节，但整个文件只有 {2} 字节</translation>
    </message>
    <message>
        <source>{0}: the header is not UTF-8 text</source>
        <translation>{0}：文件头不是 UTF-8 文本</translation>
    </message>
    <message>
        <source>{0}: tensor {1} is declared twice</source>
        <translation>{0}：张量 {1} 被声明了两次</translation>
    </message>
    <message>
        <source>{0}: the header is not valid JSON ({1})</source>
        <translation>{0}：文件头不是有效的 JSON（{1}）</translation>
    </message>
    <message>
        <source>{0}: the header is not a JSON object</source>
        <translation>{0}：文件头不是 JSON 对象</translation>
    </message>
    <message>
        <source>{0}: tensor {1}: expected an object with dtype, shape and data_offsets</source>
        <translation>{0}：张量 {1}：应为含 dtype、shape 和 data_offsets 的对象</translation>
    </message>
    <message>
        <source>{0}: tensor {1} has an unknown dtype ({2})</source>
        <translation>{0}：张量 {1} 的 dtype 未知（{2}）</translation>
    </message>
    <message>
        <source>{0}: tensor {1}: shape must be a list of whole numbers ≥ 0</source>
        <translation>{0}：张量 {1}：shape 必须是由 ≥ 0 的整数组成的列表</translation>
    </message>
    <message>
        <source>{0}: tensor {1}: data_offsets must be two whole numbers, the first not above the second</source>
        <translation>{0}：张量 {1}：data_offsets 必须是两个整数，且第一个不大于第二个</translation>
    </message>
    <message>
        <source>{0}: tensor {1}: {2} numbers of {3} take {4} bytes, but data_offsets give {5}</source>
        <translation>{0}：张量 {1}：{2} 个 {3} 数占 {4} 字节，但 data_offsets 给出的是 {5}</translation>
    </message>
    <message>
        <source>{0}: tensor {1} ends at byte {2}, past the end of the file ({3} bytes)</source>
        <translation>{0}：张量 {1} 结束于第 {2} 字节，超出了文件末尾（文件共 {3} 字节）</translation>
    </message>
    <message>
        <source>{0}: tensors {1} and {2} overlap in the file</source>
        <translation>{0}：张量 {1} 和 {2} 在文件中重叠</translation>
    </message>
    <message>
        <source>{0}: the file ends inside tensor {1}</source>
        <translation>{0}：文件在张量 {1} 中间就结束了</translation>
    </message>
    <message>
        <source>{0}: cannot start the tokenizer&apos;s process ({1})</source>
        <translation>{0}：无法启动分词器进程（{1}）</translation>
    </message>
    <message>
        <source>{0}: reading the tokenizer took more than {1} s; it was stopped</source>
        <translation>{0}：读取分词器超过了 {1} 秒，已被停止</translation>
    </message>
    <message>
        <source>{0}: the tokenizer&apos;s process ended while reading it (exit status {1})</source>
        <translation>{0}：分词器进程在读取文件时意外结束（退出状态 {1}）</translation>
    </message>
    <message>
        <source>{0}: the tokenizer&apos;s process cannot import tokenizers ({1})</source>
        <translation>{0}：分词器进程无法导入 tokenizers（{1}）</translation>
    </message>
    <message>
        <source>{0}: the tokenizer took more than {1} s on this text and was stopped</source>
        <translation>{0}：分词器处理这段文字超过了 {1} 秒，已被停止</translation>
    </message>
    <message>
        <source>{0}: the tokenizer&apos;s process ended unexpectedly (exit status {1})</source>
        <translation>{0}：分词器进程意外结束（退出状态 {1}）</translation>
    </message>
    <message>
        <source>{0}: the tokenizer failed on this text ({1})</source>
        <translation>{0}：分词器处理这段文字时出错（{1}）</translation>
    </message>
    <message>
        <source>{0}: the tokenizer&apos;s process answered something unexpected</source>
        <translation>{0}：分词器进程返回了意料之外的内容</translation>
    </message>
    <message>
        <source>{0}: {1} bytes is far too large for an index</source>
        <translation>{0}：{1} 字节，作为索引文件太大了</translation>
    </message>
    <message>
        <source>{0}: {1} is given twice</source>
        <translation>{0}：{1} 出现了两次</translation>
    </message>
    <message>
        <source>{0}: not valid JSON ({1})</source>
        <translation>{0}：不是有效的 JSON（{1}）</translation>
    </message>
    <message>
        <source>{0}: expected an object with a weight_map naming the file of each tensor</source>
        <translation>{0}：应为一个对象，其中的 weight_map 给出每个张量所在的文件</translation>
    </message>
    <message>
        <source>{0}: tensor {1} is said to be in {2}, which is not a plain file name in the model&apos;s folder</source>
        <translation>{0}：据称张量 {1} 在 {2} 中，但这不是模型文件夹中的普通文件名</translation>
    </message>
    <message>
        <source>{0}: the weights are split over {1} files; at most {2} are accepted</source>
        <translation>{0}：权重被拆分到 {1} 个文件中；最多接受 {2} 个</translation>
    </message>
    <message>
        <source>{0}: tensor {1} is said to be in {2}, which does not declare it</source>
        <translation>{0}：据称张量 {1} 在 {2} 中，但该文件没有声明它</translation>
    </message>
    <message>
        <source>{0}: this model needs about {1} MB of memory to load, and only {2} MB are free</source>
        <translation>{0}：加载这个模型约需 {1} MB 内存，而空闲内存只有 {2} MB</translation>
    </message>
    <message>
        <source>kind: expected &quot;{0}&quot; (a self-attention file), &quot;{1}&quot; (a multi-head file), &quot;{2}&quot; (a cross-attention file), &quot;{3}&quot; (a positions file), &quot;{4}&quot; (a training file) or no &quot;kind&quot; at all (a single query), got {5}</source>
        <translation>kind：应为 &quot;{0}&quot;（自注意力文件）、&quot;{1}&quot;（多头文件）、&quot;{2}&quot;（交叉注意力文件）、&quot;{3}&quot;（位置文件）、&quot;{4}&quot;（训练文件），或者不写 &quot;kind&quot;（单查询），实际是 {5}</translation>
    </message>
    <message>
        <source>kind &quot;{0}&quot;: the training lab&apos;s settings (d_k, steps, lr and seed), not a single-query scenario; open it in the training lab</source>
        <translation>kind &quot;{0}&quot;：这是训练实验页的设置（d_k、步数、学习率和种子），不是单查询场景；请在训练实验页中打开</translation>
    </message>
    <message>
        <source>&quot;{0}&quot;: unknown field (allowed in a training file: {1})</source>
        <translation>&quot;{0}&quot;：未知字段（训练文件允许：{1}）</translation>
    </message>
    <message>
        <source>unknown bug {0!r} (known: {1})</source>
        <translation>未知的错误 {0!r}（已知：{1}）</translation>
    </message>
    <message>
        <source>K not transposed: Q is {0}×{1} and K is {2}×{3}, so Q·K has no product</source>
        <translation>K 没有转置：Q 是 {0}×{1}，K 是 {2}×{3}，Q·K 无法相乘</translation>
    </message>
    <message>
        <source>choice {0}: expected 0 to {1}</source>
        <translation>选项 {0}：应为 0 到 {1}</translation>
    </message>
    <message>
        <source>expected a training scene</source>
        <translation>需要训练场景</translation>
    </message>
    <message>
        <source>base: expected a number, got {0}</source>
        <translation>base：应为数，实际为{0}</translation>
    </message>
    <message>
        <source>&quot;{0}&quot;: missing (q and k come together)</source>
        <translation>“{0}”：缺失（q 和 k 要一起给出）</translation>
    </message>
    <message>
        <source>{0}: expected {1} numbers (d = {1}), got {2}</source>
        <translation>{0}：应有 {1} 个数（d = {1}），实际有 {2} 个</translation>
    </message>
    <message>
        <source>{0}[{1}]: expected a finite number with |x| at most {2:g}, got {3!r}</source>
        <translation>{0}[{1}]：应为 |x| 不超过 {2:g} 的有限数，实际为 {3!r}</translation>
    </message>
    <message>
        <source>q and k: give both or neither</source>
        <translation>q 和 k：要么都给出，要么都不给</translation>
    </message>
    <message>
        <source>the scores could reach {0}, too large to compute safely; use smaller numbers</source>
        <translation>分数可能达到 {0}，太大，无法安全计算；请使用更小的数</translation>
    </message>
    <message>
        <source>{0}.factor: expected a number from 0 to {1:g}, got {2}</source>
        <translation>{0}.factor：应为 0 到 {1:g} 之间的数字，却是 {2}</translation>
    </message>
    <message>
        <source>{0}: expected an object of step numbers (&quot;1&quot; to &quot;{1}&quot;) and captions, got {2}</source>
        <translation>{0}：应为一个由步骤编号（&quot;1&quot; 到 &quot;{1}&quot;）和说明文字组成的对象，实际是 {2}</translation>
    </message>
    <message>
        <source>{0}: an empty object (give a caption for at least one step, &quot;1&quot; to &quot;{1}&quot;)</source>
        <translation>{0}：空对象（至少为一个步骤给出说明文字，&quot;1&quot; 到 &quot;{1}&quot;）</translation>
    </message>
    <message>
        <source>{0}: &quot;{1}&quot; is not a step (expected &quot;1&quot; to &quot;{2}&quot;)</source>
        <translation>{0}：&quot;{1}&quot; 不是步骤编号（应为 &quot;1&quot; 到 &quot;{2}&quot;）</translation>
    </message>
    <message>
        <source>question {0}: needs a single-query scenario</source>
        <translation>问题 {0}：需要单查询场景</translation>
    </message>
    <message>
        <source>unknown question {0!r} (known: {1})</source>
        <translation>未知问题 {0!r}（可用：{1}）</translation>
    </message>
    <message>
        <source>question {0}: does not apply to this scene</source>
        <translation>问题 {0}：不适用于当前场景</translation>
    </message>
    <message>
        <source>question {0}: needs a self-attention scene</source>
        <translation>问题 {0}：需要自注意力场景</translation>
    </message>
    <message>
        <source>question {0}: is not answered by clicking a key</source>
        <translation>问题 {0}：不是通过点击键向量来回答的</translation>
    </message>
    <message>
        <source>answer {0!r}: expected {1} or {2}</source>
        <translation>答案 {0!r}：应为 {1} 或 {2}</translation>
    </message>
    <message>
        <source>d_k: expected a whole number from {0} to {1}, got {2!r}</source>
        <translation>d_k：应为 {0} 到 {1} 之间的整数，实际是 {2!r}</translation>
    </message>
    <message>
        <source>steps: expected a whole number from {0} to {1}, got {2!r}</source>
        <translation>步数：应为 {0} 到 {1} 之间的整数，实际是 {2!r}</translation>
    </message>
    <message>
        <source>learning rate: expected a number from {0} to {1}, got {2!r}</source>
        <translation>学习率：应为 {0} 到 {1} 之间的数，实际是 {2!r}</translation>
    </message>
    <message>
        <source>seed: expected a whole number from 0 to {0}, got {1!r}</source>
        <translation>种子：应为 0 到 {0} 之间的整数，实际是 {1!r}</translation>
    </message>
    <message>
        <source>the {0} preset is not a cross-attention file</source>
        <translation>示例 {0} 不是交叉注意力文件</translation>
    </message>
    <message>
        <source>expected a cross-attention scenario</source>
        <translation>应为交叉注意力场景</translation>
    </message>
    <message>
        <source>the target sentence is empty: type at least one word</source>
        <translation>目标句为空：请至少输入一个词</translation>
    </message>
    <message>
        <source>the source sentence is empty: type at least one word</source>
        <translation>源句为空：请至少输入一个词</translation>
    </message>
    <message>
        <source>no file name yet: use Save As</source>
        <translation>还没有文件名：请用“另存为”</translation>
    </message>
    <message>
        <source>key index {0} is out of range (there are {1} keys)</source>
        <translation>键向量序号 {0} 超出范围（共有 {1} 个键向量）</translation>
    </message>
    <message>
        <source>expected a multi-head scenario</source>
        <translation>应为多头注意力场景</translation>
    </message>
    <message>
        <source>expected a positions scene</source>
        <translation>应为位置编码场景</translation>
    </message>
    <message>
        <source>expected a self-attention scenario</source>
        <translation>应为自注意力场景</translation>
    </message>
    <message>
        <source>the sentence is empty: type at least one word</source>
        <translation>句子为空：请至少输入一个词</translation>
    </message>
    <message>
        <source>pins: at most {0} pins, got {1}</source>
        <translation>pins：最多 {0} 个固定快照，实际为 {1}</translation>
    </message>
    <message>
        <source>pins[{0}]: expected a pinned scenario</source>
        <translation>pins[{0}]：应为固定的场景</translation>
    </message>
    <message>
        <source>pins[{0}]: a pinned scene cannot hold pins of its own</source>
        <translation>pins[{0}]：固定的场景不能再包含自己的固定快照</translation>
    </message>
    <message>
        <source>pins[{0}].number: expected a whole number from 1 to {1} that no other pin has</source>
        <translation>pins[{0}].number：应为 1 到 {1} 之间且未被其他快照使用的整数</translation>
    </message>
    <message>
        <source>pins[{0}].name: expected a string</source>
        <translation>pins[{0}].name：应为字符串</translation>
    </message>
    <message>
        <source>pins[{0}].name: {1} characters, at most {2} are allowed</source>
        <translation>pins[{0}].name：{1} 个字符，最多允许 {2} 个</translation>
    </message>
    <message>
        <source>unknown vector role {0!r} (expected one of {1})</source>
        <translation>未知的向量角色 {0!r}（应为 {1} 之一）</translation>
    </message>
    <message>
        <source>{0} index {1} is out of range (there are {2} pairs)</source>
        <translation>{0} 的序号 {1} 超出范围（共有 {2} 对）</translation>
    </message>
    <message>
        <source>{0}: expected {1} numbers, got {2}</source>
        <translation>{0}：应有 {1} 个数字，实际为 {2} 个</translation>
    </message>
    <message>
        <source>component {0} is out of range (the vector has {1})</source>
        <translation>第 {0} 个分量超出范围（该向量有 {1} 个分量）</translation>
    </message>
    <message>
        <source>at most {0} key–value pairs are allowed</source>
        <translation>最多允许 {0} 个键值对</translation>
    </message>
    <message>
        <source>new pair: expected a key of {0} and a value of {1} numbers</source>
        <translation>新的键值对：键向量应有 {0} 个数字，值应有 {1} 个数字</translation>
    </message>
    <message>
        <source>at least one key–value pair must remain</source>
        <translation>至少要保留一个键值对</translation>
    </message>
    <message>
        <source>dimension {0} is out of range (1 to {1})</source>
        <translation>维度 {0} 超出范围（1 到 {1}）</translation>
    </message>
    <message>
        <source>unknown fill {0!r} (expected zeros or random)</source>
        <translation>未知的填充方式 {0!r}（应为 zeros 或 random）</translation>
    </message>
    <message>
        <source>tokens: expected a list of strings, got a string</source>
        <translation>tokens：应为字符串列表，却是单个字符串</translation>
    </message>
    <message>
        <source>at most {0} pins: remove one before pinning another</source>
        <translation>最多 {0} 个固定快照：请先删除一个再固定新的</translation>
    </message>
    <message>
        <source>pin index {0} is out of range (there are {1} pins)</source>
        <translation>快照序号 {0} 超出范围（共有 {1} 个快照）</translation>
    </message>
    <message>
        <source>tokens: expected 1 to {0} tokens, got {1}</source>
        <translation>tokens：应为 1 到 {0} 个词元，实际为 {1} 个</translation>
    </message>
    <message>
        <source>tokens[{0}]: expected a string, got {1}</source>
        <translation>tokens[{0}]：应为字符串，却是{1}</translation>
    </message>
    <message>
        <source>tokens[{0}]: empty; every token needs at least one character</source>
        <translation>tokens[{0}]：为空；每个词元至少要有一个字符</translation>
    </message>
    <message>
        <source>tokens[{0}]: {1} characters, at most {2} are allowed</source>
        <translation>tokens[{0}]：{1} 个字符，最多允许 {2} 个</translation>
    </message>
    <message>
        <source>{0}: expected {1} rows of numbers ({2})</source>
        <translation>{0}：应为 {1} 行数字（{2}）</translation>
    </message>
    <message>
        <source>{0}: expected {1} rows ({2}), got {3}</source>
        <translation>{0}：应为 {1} 行（{2}），实际为 {3}</translation>
    </message>
    <message>
        <source>{0}: expected rows of {1} numbers ({2} = {3}), got {4}</source>
        <translation>{0}：每行应有 {1} 个数字（{2} = {3}），实际为 {4} 个</translation>
    </message>
    <message>
        <source>{0}: expected rows of 1 to {1} numbers ({2}), got {3}</source>
        <translation>{0}：每行应有 1 到 {1} 个数字（{2}），实际为 {3} 个</translation>
    </message>
    <message>
        <source>causal: expected true or false, got {0}</source>
        <translation>causal：应为 true 或 false，却是{0}</translation>
    </message>
    <message>
        <source>{0}: expected a string of at most {1} characters</source>
        <translation>{0}：应为不超过 {1} 个字符的字符串</translation>
    </message>
    <message>
        <source>&quot;{0}&quot;: unknown field (allowed in a self-attention file: {1})</source>
        <translation>&quot;{0}&quot;：未知字段（自注意力文件允许的字段：{1}）</translation>
    </message>
    <message>
        <source>kind: expected &quot;{0}&quot;, got {1}</source>
        <translation>kind：应为 &quot;{0}&quot;，实际为 {1}</translation>
    </message>
    <message>
        <source>tokens: expected a list of 1 to {0} strings, got {1}</source>
        <translation>tokens：应为含 1 到 {0} 个字符串的列表，实际为 {1}</translation>
    </message>
    <message>
        <source>{0}: expected a string, got {1}</source>
        <translation>{0}：应为字符串，却是{1}</translation>
    </message>
    <message>
        <source>an identity W needs d_k = d_v = d_model (here d_model = {0}, d_k = {1}, d_v = {2}): W_Q and W_K are d_model × d_k, W_V is d_model × d_v, and only a square matrix can be the identity</source>
        <translation>单位矩阵 W 要求 d_k = d_v = d_model（这里 d_model = {0}，d_k = {1}，d_v = {2}）：W_Q 和 W_K 是 d_model × d_k，W_V 是 d_model × d_v，只有方阵才能是单位矩阵</translation>
    </message>
    <message>
        <source>{0}: expected a whole number from 1 to {1}, got {2!r}</source>
        <translation>{0}：应为 1 到 {1} 之间的整数，实际为 {2!r}</translation>
    </message>
    <message>
        <source>unknown matrix {0!r} (expected one of {1})</source>
        <translation>未知的矩阵 {0!r}（应为 {1} 之一）</translation>
    </message>
    <message>
        <source>{0}: expected rows of numbers to paste</source>
        <translation>{0}：要粘贴的应是若干行数字</translation>
    </message>
    <message>
        <source>{0}: a {1} × {2} block at row {3}, column {4} does not fit in {5} × {6}</source>
        <translation>{0}：从第 {3} 行、第 {4} 列开始的 {1} × {2} 块放不进 {5} × {6} 的矩阵</translation>
    </message>
    <message>
        <source>token index {0} is out of range (there are {1} tokens)</source>
        <translation>词元序号 {0} 超出范围（共有 {1} 个词元）</translation>
    </message>
</context>
<context>
    <name>CrossAttentionLab</name>
    <message>
        <source>Opened “{0}”.</source>
        <translation>已打开“{0}”。</translation>
    </message>
    <message>
        <source>“{0}” asks the source</source>
        <translation>“{0}”向源句提问</translation>
    </message>
    <message>
        <source>Cross-attention: the query is row {0} of Q = Y·W_Q, the target token “{1}”; the keys and values are the rows of K = X·W_K and V = X·W_V, one per source token of “{2}”.</source>
        <translation>交叉注意力：查询是 Q = Y·W_Q 的第 {0} 行，即目标词元“{1}”；键向量和值向量是 K = X·W_K 与 V = X·W_V 的各行，“{2}”的每个源词元一行。</translation>
    </message>
    <message>
        <source>“{0}” is now the query in the explorer, the source words its keys: drag it on the canvas.</source>
        <translation>“{0}”现在是“向量”页中的查询，源句的词是它的键向量：在画布上拖动它。</translation>
    </message>
    <message>
        <source>Type a target and a source sentence or edit Y, X and the W&apos;s; hover a cell for q·k, click a row to explore that target word.</source>
        <translation>输入目标句和源句，或编辑 Y、X 和各个 W；悬停单元格查看 q·k，点击一行以探索该目标词。</translation>
    </message>
    <message>
        <source>&lt;b&gt;Q&lt;/b&gt; = Y·W&lt;sub&gt;Q&lt;/sub&gt;: ({0}) · ({1}) = &lt;b&gt;{2}&lt;/b&gt;, from the target &amp;nbsp;·&amp;nbsp; &lt;b&gt;K&lt;/b&gt; = X·W&lt;sub&gt;K&lt;/sub&gt;: ({3}) · ({1}) = &lt;b&gt;{4}&lt;/b&gt; and &lt;b&gt;V&lt;/b&gt; = X·W&lt;sub&gt;V&lt;/sub&gt;: ({3}) · ({5}) = &lt;b&gt;{6}&lt;/b&gt;, from the source</source>
        <translation>&lt;b&gt;Q&lt;/b&gt; = Y·W&lt;sub&gt;Q&lt;/sub&gt;：({0}) · ({1}) = &lt;b&gt;{2}&lt;/b&gt;，来自目标句 &amp;nbsp;·&amp;nbsp; &lt;b&gt;K&lt;/b&gt; = X·W&lt;sub&gt;K&lt;/sub&gt;：({3}) · ({1}) = &lt;b&gt;{4}&lt;/b&gt;，&lt;b&gt;V&lt;/b&gt; = X·W&lt;sub&gt;V&lt;/sub&gt;：({3}) · ({5}) = &lt;b&gt;{6}&lt;/b&gt;，来自源句</translation>
    </message>
    <message>
        <source>&lt;b&gt;Q&lt;/b&gt; = Y·W&lt;sub&gt;Q&lt;/sub&gt;: &lt;b&gt;{0}&lt;/b&gt;, one query per target token</source>
        <translation>&lt;b&gt;Q&lt;/b&gt; = Y·W&lt;sub&gt;Q&lt;/sub&gt;：&lt;b&gt;{0}&lt;/b&gt;，每个目标词元一个查询</translation>
    </message>
    <message>
        <source>&lt;b&gt;K&lt;/b&gt; = X·W&lt;sub&gt;K&lt;/sub&gt;: &lt;b&gt;{0}&lt;/b&gt;, one key per source token</source>
        <translation>&lt;b&gt;K&lt;/b&gt; = X·W&lt;sub&gt;K&lt;/sub&gt;：&lt;b&gt;{0}&lt;/b&gt;，每个源词元一个键向量</translation>
    </message>
    <message>
        <source>&lt;b&gt;V&lt;/b&gt; = X·W&lt;sub&gt;V&lt;/sub&gt;: &lt;b&gt;{0}&lt;/b&gt;, one value per source token</source>
        <translation>&lt;b&gt;V&lt;/b&gt; = X·W&lt;sub&gt;V&lt;/sub&gt;：&lt;b&gt;{0}&lt;/b&gt;，每个源词元一个值</translation>
    </message>
    <message>
        <source>&lt;b&gt;Y&lt;/b&gt;: the target&apos;s embeddings, &lt;b&gt;{0}&lt;/b&gt; (where the queries come from; type over a number to edit it)</source>
        <translation>&lt;b&gt;Y&lt;/b&gt;：目标句的嵌入，&lt;b&gt;{0}&lt;/b&gt;（查询的来源；直接输入覆盖数字即可编辑）</translation>
    </message>
    <message>
        <source>&lt;b&gt;X&lt;/b&gt;: the source&apos;s embeddings, &lt;b&gt;{0}&lt;/b&gt; (where the keys and values come from)</source>
        <translation>&lt;b&gt;X&lt;/b&gt;：源句的嵌入，&lt;b&gt;{0}&lt;/b&gt;（键向量和值向量的来源）</translation>
    </message>
    <message>
        <source>&lt;b&gt;W&lt;sub&gt;Q&lt;/sub&gt;&lt;/b&gt;: &lt;b&gt;{0}&lt;/b&gt;</source>
        <translation>&lt;b&gt;W&lt;sub&gt;Q&lt;/sub&gt;&lt;/b&gt;：&lt;b&gt;{0}&lt;/b&gt;</translation>
    </message>
    <message>
        <source>&lt;b&gt;W&lt;sub&gt;K&lt;/sub&gt;&lt;/b&gt;: &lt;b&gt;{0}&lt;/b&gt;</source>
        <translation>&lt;b&gt;W&lt;sub&gt;K&lt;/sub&gt;&lt;/b&gt;：&lt;b&gt;{0}&lt;/b&gt;</translation>
    </message>
    <message>
        <source>&lt;b&gt;W&lt;sub&gt;V&lt;/sub&gt;&lt;/b&gt;: &lt;b&gt;{0}&lt;/b&gt;</source>
        <translation>&lt;b&gt;W&lt;sub&gt;V&lt;/sub&gt;&lt;/b&gt;：&lt;b&gt;{0}&lt;/b&gt;</translation>
    </message>
    <message>
        <source>&lt;b&gt;Scores Q·K&lt;sup&gt;T&lt;/sup&gt;&lt;/b&gt;&lt;br/&gt;N&lt;sub&gt;q&lt;/sub&gt;×d&lt;sub&gt;k&lt;/sub&gt; · d&lt;sub&gt;k&lt;/sub&gt;×N&lt;sub&gt;k&lt;/sub&gt; = N&lt;sub&gt;q&lt;/sub&gt;×N&lt;sub&gt;k&lt;/sub&gt;: &amp;nbsp;({0}) · ({1}) = &lt;b&gt;{2}&lt;/b&gt;</source>
        <translation>&lt;b&gt;分数 Q·K&lt;sup&gt;T&lt;/sup&gt;&lt;/b&gt;&lt;br/&gt;N&lt;sub&gt;q&lt;/sub&gt;×d&lt;sub&gt;k&lt;/sub&gt; · d&lt;sub&gt;k&lt;/sub&gt;×N&lt;sub&gt;k&lt;/sub&gt; = N&lt;sub&gt;q&lt;/sub&gt;×N&lt;sub&gt;k&lt;/sub&gt;：&amp;nbsp;({0}) · ({1}) = &lt;b&gt;{2}&lt;/b&gt;</translation>
    </message>
    <message>
        <source>1/√{0} = {1}</source>
        <translation>1/√{0} = {1}</translation>
    </message>
    <message>
        <source>&lt;b&gt;Weights&lt;/b&gt;&lt;br/&gt;softmax of each row of Q·K&lt;sup&gt;T&lt;/sup&gt; × {0}</source>
        <translation>&lt;b&gt;权重&lt;/b&gt;&lt;br/&gt;对 Q·K&lt;sup&gt;T&lt;/sup&gt; × {0} 的每一行做 softmax</translation>
    </message>
    <message>
        <source>Row = target token (it asks), column = source token (it answers). &lt;b&gt;Each row sums to 1.&lt;/b&gt; No mask: the whole source is already known. Click a row: that target token becomes the explorer&apos;s query.</source>
        <translation>行 = 目标词元（提问），列 = 源词元（回答）。&lt;b&gt;每行之和为 1。&lt;/b&gt;没有掩码：整个源句已经已知。点击一行：该目标词元成为探索器的查询。</translation>
    </message>
    <message>
        <source>Hover over a cell (i, j) to see q&lt;sub&gt;i&lt;/sub&gt;·k&lt;sub&gt;j&lt;/sub&gt;: target token i asking source token j; click a row to explore it.</source>
        <translation>悬停在单元格 (i, j) 上查看 q&lt;sub&gt;i&lt;/sub&gt;·k&lt;sub&gt;j&lt;/sub&gt;：目标词元 i 向源词元 j 提问；点击一行以探索它。</translation>
    </message>
    <message>
        <source>{0} · {1} = &lt;b&gt;{2}&lt;/b&gt; &amp;nbsp;→&amp;nbsp; weight &lt;b&gt;{3}&lt;/b&gt;</source>
        <translation>{0} · {1} = &lt;b&gt;{2}&lt;/b&gt; &amp;nbsp;→&amp;nbsp; 权重 &lt;b&gt;{3}&lt;/b&gt;</translation>
    </message>
    <message>
        <source>q·k of “{0}” (target) and “{1}” (source) = {2}; click to make “{0}” the explorer&apos;s query</source>
        <translation>“{0}”（目标）与“{1}”（源）的 q·k = {2}；点击使“{0}”成为探索器的查询</translation>
    </message>
    <message>
        <source>Target (queries)</source>
        <translation>目标句（查询）</translation>
    </message>
    <message>
        <source>Source (keys, values)</source>
        <translation>源句（键向量、值向量）</translation>
    </message>
    <message>
        <source>The sentence being written, the decoder&apos;s side: words separated by spaces (Chinese typed without spaces is one token per character, as Chinese BERT splits it), then Enter</source>
        <translation>正在生成的句子（解码器一侧）：词与词用空格隔开（不加空格的中文按字切分，每个字一个词元，和中文 BERT 一样），然后按回车</translation>
    </message>
    <message>
        <source>The sentence being translated, the encoder&apos;s side: words separated by spaces (Chinese typed without spaces is one token per character, as Chinese BERT splits it), then Enter</source>
        <translation>被翻译的句子（编码器一侧）：词与词用空格隔开（不加空格的中文按字切分，每个字一个词元，和中文 BERT 一样），然后按回车</translation>
    </message>
    <message>
        <source>The translation example with its hand-made numbers</source>
        <translation>翻译示例及其手工设定的数值</translation>
    </message>
    <message>
        <source>Scale by 1/√d_k</source>
        <translation>按 1/√d_k 缩放</translation>
    </message>
    <message>
        <source>Q, K, V</source>
        <translation>Q、K、V</translation>
    </message>
    <message>
        <source>Y (target)</source>
        <translation>Y（目标句）</translation>
    </message>
    <message>
        <source>X (source)</source>
        <translation>X（源句）</translation>
    </message>
</context>
<context>
    <name>ExplorerModel</name>
    <message>
        <source>Edit {0}</source>
        <translation>编辑 {0}</translation>
    </message>
    <message>
        <source>Rename the keys</source>
        <translation>重命名键向量</translation>
    </message>
    <message>
        <source>Move {0}</source>
        <translation>移动 {0}</translation>
    </message>
    <message>
        <source>Add key–value pair</source>
        <translation>添加键值对</translation>
    </message>
    <message>
        <source>Remove {0}</source>
        <translation>删除 {0}</translation>
    </message>
    <message>
        <source>Set d_k = {0}</source>
        <translation>设 d_k = {0}</translation>
    </message>
    <message>
        <source>Set d_v = {0}</source>
        <translation>设 d_v = {0}</translation>
    </message>
    <message>
        <source>Scale 1/√d_k</source>
        <translation>缩放 1/√d_k</translation>
    </message>
    <message>
        <source>Scale × {0:.3g}</source>
        <translation>缩放 × {0:.3g}</translation>
    </message>
    <message>
        <source>Rename {0}</source>
        <translation>重命名 {0}</translation>
    </message>
    <message>
        <source>Set title</source>
        <translation>设置标题</translation>
    </message>
    <message>
        <source>Pin {0}</source>
        <translation>固定快照 {0}</translation>
    </message>
    <message>
        <source>Remove pin {0}</source>
        <translation>删除快照 {0}</translation>
    </message>
    <message>
        <source>Remove all pins</source>
        <translation>删除全部快照</translation>
    </message>
    <message>
        <source>Cross-attention</source>
        <translation>交叉注意力</translation>
    </message>
    <message>
        <source>Open {0}</source>
        <translation>打开 {0}</translation>
    </message>
    <message>
        <source>Example {0}</source>
        <translation>示例 {0}</translation>
    </message>
    <message>
        <source>Source “{0}”</source>
        <translation>源句“{0}”</translation>
    </message>
    <message>
        <source>Target “{0}”</source>
        <translation>目标句“{0}”</translation>
    </message>
    <message>
        <source>Edit {0}[{1}, {2}]</source>
        <translation>编辑 {0}[{1}, {2}]</translation>
    </message>
    <message>
        <source>scenario</source>
        <translation>场景</translation>
    </message>
    <message>
        <source>V of {0}</source>
        <translation>{0} 的 V</translation>
    </message>
    <message>
        <source>Multi-head</source>
        <translation>多头</translation>
    </message>
    <message>
        <source>Sentence “{0}”</source>
        <translation>句子“{0}”</translation>
    </message>
    <message>
        <source>Set d_model = {0}</source>
        <translation>设 d_model = {0}</translation>
    </message>
    <message>
        <source>Set h = {0}</source>
        <translation>设 h = {0}</translation>
    </message>
    <message>
        <source>Random X, W (seed {0})</source>
        <translation>随机 X、W（种子 {0}）</translation>
    </message>
    <message>
        <source>Causal mask on</source>
        <translation>开启因果掩码</translation>
    </message>
    <message>
        <source>Causal mask off</source>
        <translation>关闭因果掩码</translation>
    </message>
    <message>
        <source>Positions</source>
        <translation>位置</translation>
    </message>
    <message>
        <source>Set d = {0}</source>
        <translation>设 d = {0}</translation>
    </message>
    <message>
        <source>Pair {0}</source>
        <translation>频率对 {0}</translation>
    </message>
    <message>
        <source>Query at m = {0}</source>
        <translation>查询位于 m = {0}</translation>
    </message>
    <message>
        <source>Key at n = {0}</source>
        <translation>键向量位于 n = {0}</translation>
    </message>
    <message>
        <source>Seed {0}</source>
        <translation>种子 {0}</translation>
    </message>
    <message>
        <source>Load {0}</source>
        <translation>载入 {0}</translation>
    </message>
    <message>
        <source>Self-attention</source>
        <translation>自注意力</translation>
    </message>
    <message>
        <source>W = I</source>
        <translation>W = I</translation>
    </message>
    <message>
        <source>Paste into {0}</source>
        <translation>粘贴到 {0}</translation>
    </message>
    <message>
        <source>Padding {0}</source>
        <translation>填充 {0}</translation>
    </message>
    <message>
        <source>No padding</source>
        <translation>无填充</translation>
    </message>
    <message>
        <source>{0}: {1}</source>
        <translation>{0}：{1}</translation>
    </message>
    <message>
        <source>Training</source>
        <translation>训练</translation>
    </message>
    <message>
        <source>{0} steps</source>
        <translation>{0} 步</translation>
    </message>
    <message>
        <source>Learning rate {0}</source>
        <translation>学习率 {0}</translation>
    </message>
</context>
<context>
    <name>Export</name>
    <message>
        <source>the picture could not be made</source>
        <translation>无法生成图片</translation>
    </message>
    <message>
        <source>Made with Attention Explorer</source>
        <translation>由 Attention Explorer 制作</translation>
    </message>
    <message>
        <source>Export…</source>
        <translation>导出…</translation>
    </message>
    <message>
        <source>Copy picture</source>
        <translation>复制图片</translation>
    </message>
    <message>
        <source>Copy the plot as a picture, to paste into slides</source>
        <translation>把这张图复制为图片，可粘贴到幻灯片里</translation>
    </message>
</context>
<context>
    <name>ExportOptions</name>
    <message>
        <source>Export figure</source>
        <translation>导出图</translation>
    </message>
    <message>
        <source>PNG picture</source>
        <translation>PNG 图片</translation>
    </message>
    <message>
        <source>SVG drawing (vectors)</source>
        <translation>SVG 矢量图</translation>
    </message>
    <message>
        <source>PDF document (vectors)</source>
        <translation>PDF 文档（矢量）</translation>
    </message>
    <message>
        <source> px</source>
        <translation> 像素</translation>
    </message>
    <message>
        <source>Export…</source>
        <translation>导出…</translation>
    </message>
    <message>
        <source>Format:</source>
        <translation>格式：</translation>
    </message>
    <message>
        <source>Width:</source>
        <translation>宽度：</translation>
    </message>
    <message>
        <source>{0} × {1} pixels</source>
        <translation>{0} × {1} 像素</translation>
    </message>
    <message>
        <source>Vectors: sharp at any size; text stays text.</source>
        <translation>矢量图：任意大小都清晰，文字仍是文字。</translation>
    </message>
</context>
<context>
    <name>FileErrors</name>
    <message>
        <source>the disk is full</source>
        <translation>磁盘已满</translation>
    </message>
    <message>
        <source>the disk quota is used up</source>
        <translation>磁盘配额已用完</translation>
    </message>
    <message>
        <source>the file is too large for this disk</source>
        <translation>文件对这个磁盘来说太大</translation>
    </message>
    <message>
        <source>permission denied</source>
        <translation>没有权限</translation>
    </message>
    <message>
        <source>the disk is read-only</source>
        <translation>磁盘是只读的</translation>
    </message>
    <message>
        <source>the folder does not exist</source>
        <translation>文件夹不存在</translation>
    </message>
    <message>
        <source>part of the path is not a folder</source>
        <translation>路径中有一部分不是文件夹</translation>
    </message>
    <message>
        <source>there is a folder of that name</source>
        <translation>已有同名的文件夹</translation>
    </message>
    <message>
        <source>the name is too long</source>
        <translation>名称太长</translation>
    </message>
    <message>
        <source>the disk reported an input/output error</source>
        <translation>磁盘报告了输入/输出错误</translation>
    </message>
    <message>
        <source>a file of that name is in the way</source>
        <translation>已有同名的文件挡住了</translation>
    </message>
</context>
<context>
    <name>GenerationView</name>
    <message>
        <source>Press “Next token”: the model appends its most likely next token (or one of the k likeliest) and only the new token&apos;s q, k and v are computed; every earlier k and v comes from the cache.</source>
        <translation>按“下一个词元”：模型追加最可能的下一个词元（或概率最高的 k 个之一），只计算新词元的 q、k、v；之前所有的 k 和 v 都来自缓存。</translation>
    </message>
    <message>
        <source>KV cache: {0} layers × 2 (K, V) × {1} K/V heads × {2} tokens × {3} = {4} numbers, {5} bytes (float64)</source>
        <translation>KV 缓存：{0} 层 × 2（K、V）× {1} 个 K/V 头 × {2} 个词元 × {3} = {4} 个数，{5} 字节（float64）</translation>
    </message>
    <message>
        <source>Grouped-query attention: {0} query heads share {1} K/V heads, so the cache holds {1} heads&apos; keys and values, not {0}. Full multi-head attention would hold {2} numbers, {3} bytes: {4}× as much.</source>
        <translation>分组查询注意力：{0} 个查询头共用 {1} 个 K/V 头，所以缓存只存 {1} 个头的键向量和值向量，而不是 {0} 个。完整的多头注意力要存 {2} 个数，{3} 字节：是它的 {4} 倍。</translation>
    </message>
    <message>
        <source>GQA, {0} K/V heads: {1} bytes</source>
        <translation>GQA，{0} 个 K/V 头：{1} 字节</translation>
    </message>
    <message>
        <source>full MHA, {0} heads: {1} bytes</source>
        <translation>完整 MHA，{0} 个头：{1} 字节</translation>
    </message>
    <message>
        <source>KV cache: {0} layers × 2 (K, V) × {1} heads × {2} tokens × {3} = {4} numbers, {5} bytes (float64)</source>
        <translation>KV 缓存：{0} 层 × 2（K、V）× {1} 个头 × {2} 个词元 × {3} = {4} 个数，{5} 字节（float64）</translation>
    </message>
    <message>
        <source>The next token&apos;s attention: with the cache {0} multiply-adds (its q against {1} keys and values: O(n·d)); recomputing the whole sequence {2} (every query again: O(n²·d)), {3}× as many</source>
        <translation>下一个词元的注意力：使用缓存需 {0} 次乘加（它的 q 对 {1} 个键向量和值向量：O(n·d)）；重新计算整个序列需 {2} 次（每个查询都重算：O(n²·d)），是前者的 {3} 倍</translation>
    </message>
    <message>
        <source>Next token</source>
        <translation>下一个词元</translation>
    </message>
    <message>
        <source>Append the model&apos;s next token, computed from the KV cache</source>
        <translation>追加模型的下一个词元（由 KV 缓存计算）</translation>
    </message>
    <message>
        <source>Greedy</source>
        <translation>贪心</translation>
    </message>
    <message>
        <source>Top-k</source>
        <translation>Top-k</translation>
    </message>
    <message>
        <source>Greedy takes the most likely token; top-k draws among the k likeliest (seeded, so it can be repeated)</source>
        <translation>贪心取概率最高的词元；top-k 从概率最高的 k 个中抽取（带种子，可重复）</translation>
    </message>
    <message>
        <source>k</source>
        <translation>k</translation>
    </message>
    <message>
        <source>Seed</source>
        <translation>种子</translation>
    </message>
    <message>
        <source>Explore the last token as Q</source>
        <translation>把最后一个词元作为 Q 探索</translation>
    </message>
    <message>
        <source>Open the last token&apos;s q in the explorer, with the cached k&apos;s and v&apos;s as the keys and values</source>
        <translation>在探索器中打开最后一个词元的 q，以缓存的 k 和 v 作为键向量和值向量</translation>
    </message>
</context>
<context>
    <name>GetModelDialog</name>
    <message>
        <source>a small sentence encoder built like BERT: 6 layers × 12 heads</source>
        <translation>结构与 BERT 相同的小型句子编码器：6 层 × 12 个头</translation>
    </message>
    <message>
        <source>the original BERT (base, lower case): 12 layers × 12 heads</source>
        <translation>原版 BERT（base，小写）：12 层 × 12 个头</translation>
    </message>
    <message>
        <source>OpenAI&apos;s GPT-2 (small), a decoder that reads left to right: 12 layers × 12 heads</source>
        <translation>OpenAI 的 GPT-2（small），从左到右读的解码器：12 层 × 12 个头</translation>
    </message>
    <message>
        <source>a distilled GPT-2: 6 layers × 12 heads</source>
        <translation>蒸馏版 GPT-2：6 层 × 12 个头</translation>
    </message>
    <message>
        <source>a small Llama-family decoder (RoPE, grouped-query attention): 30 layers × 9 heads</source>
        <translation>小型 Llama 系列解码器（RoPE、分组查询注意力）：30 层 × 9 个头</translation>
    </message>
    <message>
        <source>a Qwen2 decoder that reads Chinese (RoPE, grouped-query attention): 24 layers × 14 heads</source>
        <translation>能读中文的 Qwen2 解码器（RoPE、分组查询注意力）：24 层 × 14 个头</translation>
    </message>
    <message>
        <source>BERT for Chinese, one token per character: 12 layers × 12 heads</source>
        <translation>中文 BERT，每个汉字一个词元：12 层 × 12 个头</translation>
    </message>
    <message>
        <source>Connecting to {0}…</source>
        <translation>正在连接 {0}…</translation>
    </message>
    <message>
        <source>Cancelling…</source>
        <translation>正在取消…</translation>
    </message>
    <message>
        <source>{0} of {1}</source>
        <translation>{0} / {1}</translation>
    </message>
    <message>
        <source>about {0} min left</source>
        <translation>约剩 {0} 分钟</translation>
    </message>
    <message>
        <source>about {0} s left</source>
        <translation>约剩 {0} 秒</translation>
    </message>
    <message>
        <source>Downloaded {0} into {1}</source>
        <translation>已将 {0} 下载到 {1}</translation>
    </message>
    <message>
        <source>Cannot download: {0}</source>
        <translation>无法下载：{0}</translation>
    </message>
    <message>
        <source>Cancelled; nothing of it was kept.</source>
        <translation>已取消，未保留任何部分。</translation>
    </message>
    <message>
        <source>Downloading needs the optional package huggingface_hub. Install it with: {0}</source>
        <translation>下载需要可选软件包 huggingface_hub。安装命令：{0}</translation>
    </message>
    <message>
        <source>{0} · about {1}</source>
        <translation>{0} · 约 {1}</translation>
    </message>
    <message>
        <source>already on this computer</source>
        <translation>本机已有</translation>
    </message>
    <message>
        <source>Get a model</source>
        <translation>获取模型</translation>
    </message>
    <message>
        <source>Download one of these models from the Hugging Face Hub ({0}) into the Hugging Face cache on this computer ({1}); the real-transformer page then lists it. Only config.json, tokenizer.json and model.safetensors are fetched, each checked against the Hub&apos;s list of files (its size and its hash) before the model is listed, and nothing is fetched until you press Download.</source>
        <translation>从 Hugging Face Hub（{0}）下载下列模型之一到本机的 Hugging Face 缓存（{1}），之后“真实模型”页会列出它。只获取 config.json、tokenizer.json 和 model.safetensors，每个文件都先与 Hub 的文件列表核对（大小和哈希）才会列出模型；在你按下“下载”之前不会获取任何东西。</translation>
    </message>
    <message>
        <source>Download</source>
        <translation>下载</translation>
    </message>
    <message>
        <source>Cancel download</source>
        <translation>取消下载</translation>
    </message>
    <message>
        <source>Close</source>
        <translation>关闭</translation>
    </message>
    <message>
        <source>Downloaded {0}</source>
        <translation>已下载 {0}</translation>
    </message>
</context>
<context>
    <name>HelpDialog</name>
    <message>
        <source>Attention Explorer guide</source>
        <translation>Attention Explorer 指南</translation>
    </message>
    <message>
        <source>Guide</source>
        <translation>指南</translation>
    </message>
    <message>
        <source>Glossary</source>
        <translation>术语表</translation>
    </message>
    <message>
        <source>Keyboard</source>
        <translation>快捷键</translation>
    </message>
    <message>
        <source>About</source>
        <translation>关于</translation>
    </message>
    <message>
        <source>Try it</source>
        <translation>试一试</translation>
    </message>
    <message>
        <source>On the canvas: keys 1–9 select a key vector, the arrow keys rotate it, Space turns it through 360°.</source>
        <translation>在画布上：按键 1–9 选择键向量，方向键旋转它，空格键让它转一整圈（360°）。</translation>
    </message>
    <message>
        <source>Attention Explorer {0}</source>
        <translation>Attention Explorer {0}</translation>
    </message>
    <message>
        <source>See scaled dot-product attention, softmax(Q·Kᵀ/√d_k)·V, step by step, as the article explains it.</source>
        <translation>按文章的讲法，一步一步看懂缩放点积注意力 softmax(Q·Kᵀ/√d_k)·V。</translation>
    </message>
    <message>
        <source>Licence: MIT</source>
        <translation>许可证：MIT</translation>
    </message>
</context>
<context>
    <name>HistoryView</name>
    <message>
        <source>&lt;older steps dropped to save memory&gt;</source>
        <translation>&lt;为节省内存，较早的步骤已删除&gt;</translation>
    </message>
</context>
<context>
    <name>LectureBar</name>
    <message>
        <source>◀ Back</source>
        <translation>◀ 上一页</translation>
    </message>
    <message>
        <source>Next ▶</source>
        <translation>下一页 ▶</translation>
    </message>
    <message>
        <source>End lecture</source>
        <translation>结束讲课</translation>
    </message>
    <message>
        <source>Page Down on a clicker</source>
        <translation>翻页器上的 Page Down</translation>
    </message>
    <message>
        <source>Page Up on a clicker</source>
        <translation>翻页器上的 Page Up</translation>
    </message>
    <message>
        <source>Esc leaves · Home restarts · Page Up goes back to the last scene</source>
        <translation>Esc 退出 · Home 从头开始 · Page Up 回到最后一个场景</translation>
    </message>
    <message>
        <source>End of the lecture</source>
        <translation>讲解结束</translation>
    </message>
    <message>
        <source>Scene {0} of {1}</source>
        <translation>第 {0} 幕，共 {1} 幕</translation>
    </message>
</context>
<context>
    <name>MainWindow</name>
    <message>
        <source>Attention Explorer scenario (*.json);;All files (*)</source>
        <translation>Attention Explorer 场景 (*.json);;所有文件 (*)</translation>
    </message>
    <message>
        <source>About this example</source>
        <translation>示例说明</translation>
    </message>
    <message>
        <source>Vectors</source>
        <translation>向量</translation>
    </message>
    <message>
        <source>d_k and scale</source>
        <translation>d_k 与缩放</translation>
    </message>
    <message>
        <source>The four steps</source>
        <translation>四个步骤</translation>
    </message>
    <message>
        <source>Attention weights</source>
        <translation>注意力权重</translation>
    </message>
    <message>
        <source>Output</source>
        <translation>输出</translation>
    </message>
    <message>
        <source>Rotation trace</source>
        <translation>旋转轨迹</translation>
    </message>
    <message>
        <source>History</source>
        <translation>历史记录</translation>
    </message>
    <message>
        <source>Scoring functions</source>
        <translation>打分函数</translation>
    </message>
    <message>
        <source>Pins</source>
        <translation>快照</translation>
    </message>
    <message>
        <source>&lt;opened&gt;</source>
        <translation>&lt;初始状态&gt;</translation>
    </message>
    <message>
        <source>All pages</source>
        <translation>全部页面</translation>
    </message>
    <message>
        <source>Every page of the middle, also on Ctrl+1 … Ctrl+{0}</source>
        <translation>中间区域的每一页，也可用 Ctrl+1 … Ctrl+{0} 切换</translation>
    </message>
    <message>
        <source>&amp;New</source>
        <translation>新建(&amp;N)</translation>
    </message>
    <message>
        <source>Start from the default example</source>
        <translation>从默认示例重新开始</translation>
    </message>
    <message>
        <source>&amp;Open…</source>
        <translation>打开(&amp;O)…</translation>
    </message>
    <message>
        <source>Open a scenario file</source>
        <translation>打开场景文件</translation>
    </message>
    <message>
        <source>Open &amp;model…</source>
        <translation>打开模型(&amp;M)…</translation>
    </message>
    <message>
        <source>Open a local BERT-family model folder and look at its real attention</source>
        <translation>打开本地的 BERT 系列模型文件夹，查看它真实的注意力</translation>
    </message>
    <message>
        <source>&amp;Save</source>
        <translation>保存(&amp;S)</translation>
    </message>
    <message>
        <source>Save the scenario</source>
        <translation>保存场景</translation>
    </message>
    <message>
        <source>Save &amp;As…</source>
        <translation>另存为(&amp;A)…</translation>
    </message>
    <message>
        <source>Save the scenario under a new name</source>
        <translation>以新文件名保存场景</translation>
    </message>
    <message>
        <source>&amp;Quit</source>
        <translation>退出(&amp;Q)</translation>
    </message>
    <message>
        <source>Close Attention Explorer</source>
        <translation>关闭 Attention Explorer</translation>
    </message>
    <message>
        <source>Canvas as PNG…</source>
        <translation>画布（PNG）…</translation>
    </message>
    <message>
        <source>Multi-head attention</source>
        <translation>多头注意力</translation>
    </message>
    <message>
        <source>Canvas as SVG…</source>
        <translation>画布（SVG）…</translation>
    </message>
    <message>
        <source>Canvas as PDF…</source>
        <translation>画布（PDF）…</translation>
    </message>
    <message>
        <source>Weights chart as PNG…</source>
        <translation>权重图（PNG）…</translation>
    </message>
    <message>
        <source>Weights chart as SVG…</source>
        <translation>权重图（SVG）…</translation>
    </message>
    <message>
        <source>Weights chart as PDF…</source>
        <translation>权重图（PDF）…</translation>
    </message>
    <message>
        <source>Output view as PNG…</source>
        <translation>输出图（PNG）…</translation>
    </message>
    <message>
        <source>Output view as SVG…</source>
        <translation>输出图（SVG）…</translation>
    </message>
    <message>
        <source>Output view as PDF…</source>
        <translation>输出图（PDF）…</translation>
    </message>
    <message>
        <source>&amp;Get a model…</source>
        <translation>获取模型(&amp;G)…</translation>
    </message>
    <message>
        <source>Download a model from the Hugging Face Hub into its cache, with progress</source>
        <translation>从 Hugging Face Hub 下载模型到其缓存，并显示进度</translation>
    </message>
    <message>
        <source>Whole window as PNG…</source>
        <translation>整个窗口（PNG）…</translation>
    </message>
    <message>
        <source>Markdown table</source>
        <translation>Markdown 表格</translation>
    </message>
    <message>
        <source>Copy the four steps as a Markdown table</source>
        <translation>把四个步骤复制为 Markdown 表格</translation>
    </message>
    <message>
        <source>LaTeX</source>
        <translation>LaTeX</translation>
    </message>
    <message>
        <source>Copy the four steps as a LaTeX table</source>
        <translation>把四个步骤复制为 LaTeX 表格</translation>
    </message>
    <message>
        <source>NumPy snippet</source>
        <translation>NumPy 代码</translation>
    </message>
    <message>
        <source>Copy a NumPy script that reproduces the four steps</source>
        <translation>复制一段能重现四个步骤的 NumPy 脚本</translation>
    </message>
    <message>
        <source>&amp;Undo</source>
        <translation>撤销(&amp;U)</translation>
    </message>
    <message>
        <source>&amp;Redo</source>
        <translation>重做(&amp;R)</translation>
    </message>
    <message>
        <source>Add key–value pair</source>
        <translation>添加键值对</translation>
    </message>
    <message>
        <source>Remove selected pair</source>
        <translation>删除选中的键值对</translation>
    </message>
    <message>
        <source>Reset panel layout</source>
        <translation>重置面板布局</translation>
    </message>
    <message>
        <source>Put every panel back where it started</source>
        <translation>把所有面板放回初始位置</translation>
    </message>
    <message>
        <source>&amp;Full screen</source>
        <translation>全屏(&amp;F)</translation>
    </message>
    <message>
        <source>Zoom in</source>
        <translation>放大</translation>
    </message>
    <message>
        <source>Larger text, lines and arrows</source>
        <translation>加大文字、线条和箭头</translation>
    </message>
    <message>
        <source>Zoom out</source>
        <translation>缩小</translation>
    </message>
    <message>
        <source>Smaller text, lines and arrows</source>
        <translation>缩小文字、线条和箭头</translation>
    </message>
    <message>
        <source>Normal size</source>
        <translation>正常大小</translation>
    </message>
    <message>
        <source>Light</source>
        <translation>浅色</translation>
    </message>
    <message>
        <source>Dark</source>
        <translation>深色</translation>
    </message>
    <message>
        <source>High contrast (projector)</source>
        <translation>高对比度（投影仪）</translation>
    </message>
    <message>
        <source>Step through the four steps</source>
        <translation>逐步演示四个步骤</translation>
    </message>
    <message>
        <source>Reveal the steps one at a time</source>
        <translation>每次只显示一个步骤</translation>
    </message>
    <message>
        <source>Next step</source>
        <translation>下一步</translation>
    </message>
    <message>
        <source>Right arrow or Page Down in step-through mode</source>
        <translation>逐步演示时按右方向键或 Page Down</translation>
    </message>
    <message>
        <source>Previous step</source>
        <translation>上一步</translation>
    </message>
    <message>
        <source>Left arrow or Page Up in step-through mode</source>
        <translation>逐步演示时按左方向键或 Page Up</translation>
    </message>
    <message>
        <source>Select next key</source>
        <translation>选择下一个键向量</translation>
    </message>
    <message>
        <source>Select previous key</source>
        <translation>选择上一个键向量</translation>
    </message>
    <message>
        <source>Rotate key 5° counter-clockwise</source>
        <translation>键向量逆时针旋转 5°</translation>
    </message>
    <message>
        <source>Rotate key 5° clockwise</source>
        <translation>键向量顺时针旋转 5°</translation>
    </message>
    <message>
        <source>Rotate key 1° counter-clockwise</source>
        <translation>键向量逆时针旋转 1°</translation>
    </message>
    <message>
        <source>Rotate key 1° clockwise</source>
        <translation>键向量顺时针旋转 1°</translation>
    </message>
    <message>
        <source>Make key longer</source>
        <translation>加长键向量</translation>
    </message>
    <message>
        <source>Make key shorter</source>
        <translation>缩短键向量</translation>
    </message>
    <message>
        <source>Play a full turn</source>
        <translation>旋转一整圈</translation>
    </message>
    <message>
        <source>Turn the selected key through 360°</source>
        <translation>把选中的键向量转一整圈（360°）</translation>
    </message>
    <message>
        <source>Stop the turn</source>
        <translation>停止旋转</translation>
    </message>
    <message>
        <source>Select key {0}</source>
        <translation>选择键向量 {0}</translation>
    </message>
    <message>
        <source>Cross-attention</source>
        <translation>交叉注意力</translation>
    </message>
    <message>
        <source>Positions and q·k</source>
        <translation>位置与 q·k</translation>
    </message>
    <message>
        <source>&amp;File</source>
        <translation>文件(&amp;F)</translation>
    </message>
    <message>
        <source>Open &amp;Recent</source>
        <translation>最近打开(&amp;R)</translation>
    </message>
    <message>
        <source>&amp;Export</source>
        <translation>导出(&amp;E)</translation>
    </message>
    <message>
        <source>Current &amp;page…</source>
        <translation>当前页面(&amp;P)…</translation>
    </message>
    <message>
        <source>The page shown as one picture: PNG, SVG or PDF</source>
        <translation>把显示的页面导出为一张图：PNG、SVG 或 PDF</translation>
    </message>
    <message>
        <source>&amp;Copy as</source>
        <translation>复制为(&amp;C)</translation>
    </message>
    <message>
        <source>&amp;Record…</source>
        <translation>录制(&amp;R)…</translation>
    </message>
    <message>
        <source>Record the canvas or the window while you drag or a key turns: GIF, WebP, APNG or MP4</source>
        <translation>在拖动或键向量旋转时录制画布或整个窗口：GIF、WebP、APNG 或 MP4</translation>
    </message>
    <message>
        <source>&amp;Edit</source>
        <translation>编辑(&amp;E)</translation>
    </message>
    <message>
        <source>&amp;Pin this scene</source>
        <translation>固定当前场景(&amp;P)</translation>
    </message>
    <message>
        <source>Keep the current numbers as a ghost beside the live ones (up to three pins)</source>
        <translation>把当前的数值保留为虚影，与实时画面并排显示（最多三个快照）</translation>
    </message>
    <message>
        <source>Remove all pins</source>
        <translation>删除全部快照</translation>
    </message>
    <message>
        <source>Remove every pin (one undo step)</source>
        <translation>删除所有快照（一步撤销）</translation>
    </message>
    <message>
        <source>E&amp;xamples</source>
        <translation>示例(&amp;X)</translation>
    </message>
    <message>
        <source>&amp;Keys</source>
        <translation>键向量(&amp;K)</translation>
    </message>
    <message>
        <source>&amp;View</source>
        <translation>视图(&amp;V)</translation>
    </message>
    <message>
        <source>&amp;Panels</source>
        <translation>面板(&amp;P)</translation>
    </message>
    <message>
        <source>&amp;Question mode</source>
        <translation>提问模式(&amp;Q)</translation>
    </message>
    <message>
        <source>A question before each hidden step; click to answer</source>
        <translation>每个隐藏步骤揭晓前先提一个问题；点击作答</translation>
    </message>
    <message>
        <source>Lectur&amp;e</source>
        <translation>讲课(&amp;E)</translation>
    </message>
    <message>
        <source>The article&apos;s path</source>
        <translation>文章的讲解路线</translation>
    </message>
    <message>
        <source>The built-in script, library lookup to self-attention</source>
        <translation>内置讲稿：从图书馆检索到自注意力</translation>
    </message>
    <message>
        <source>Open lecture script…</source>
        <translation>打开讲稿…</translation>
    </message>
    <message>
        <source>End the lecture</source>
        <translation>结束讲课</translation>
    </message>
    <message>
        <source>P&amp;resentation</source>
        <translation>演示模式(&amp;R)</translation>
    </message>
    <message>
        <source>Canvas large, charts beside it; F5 or Esc returns to the desk layout</source>
        <translation>画布放大，图表在旁；按 F5 或 Esc 回到桌面布局</translation>
    </message>
    <message>
        <source>&amp;Theme</source>
        <translation>主题(&amp;T)</translation>
    </message>
    <message>
        <source>&amp;Help</source>
        <translation>帮助(&amp;H)</translation>
    </message>
    <message>
        <source>&amp;Guide</source>
        <translation>指南(&amp;G)</translation>
    </message>
    <message>
        <source>The article&apos;s path step by step, a glossary and the keys</source>
        <translation>按文章的思路一步步走，附术语表和快捷键</translation>
    </message>
    <message>
        <source>&amp;About Attention Explorer</source>
        <translation>关于 Attention Explorer(&amp;A)</translation>
    </message>
    <message>
        <source>Version and licence</source>
        <translation>版本和许可证</translation>
    </message>
    <message>
        <source>&amp;Labs</source>
        <translation>实验(&amp;L)</translation>
    </message>
    <message>
        <source>Saturation: why scale?</source>
        <translation>饱和：为何缩放？</translation>
    </message>
    <message>
        <source>Variance: why √dₖ?</source>
        <translation>方差：为何是 √dₖ？</translation>
    </message>
    <message>
        <source>Self-attention</source>
        <translation>自注意力</translation>
    </message>
    <message>
        <source>Real transformer</source>
        <translation>真实模型</translation>
    </message>
    <message>
        <source>&amp;Language</source>
        <translation>语言(&amp;L)</translation>
    </message>
    <message>
        <source>&amp;Undo {0}</source>
        <translation>撤销 {0}(&amp;U)</translation>
    </message>
    <message>
        <source>&amp;Redo {0}</source>
        <translation>重做 {0}(&amp;R)</translation>
    </message>
    <message>
        <source>Cannot add a pair</source>
        <translation>无法添加键值对</translation>
    </message>
    <message>
        <source>Cannot remove the pair</source>
        <translation>无法删除键值对</translation>
    </message>
    <message>
        <source>Language</source>
        <translation>语言</translation>
    </message>
    <message>
        <source>The translation for {0} is missing.</source>
        <translation>缺少{0}的翻译文件。</translation>
    </message>
    <message>
        <source>Unsaved changes</source>
        <translation>未保存的更改</translation>
    </message>
    <message>
        <source>The scenario has changes that are not saved. Save them?</source>
        <translation>场景有尚未保存的更改。要保存吗？</translation>
    </message>
    <message>
        <source>“{0}” has changes that are not saved. Save them?</source>
        <translation>“{0}”有尚未保存的更改。要保存吗？</translation>
    </message>
    <message>
        <source>Open scenario</source>
        <translation>打开场景</translation>
    </message>
    <message>
        <source>Cannot open the file</source>
        <translation>无法打开文件</translation>
    </message>
    <message>
        <source>Save scenario</source>
        <translation>保存场景</translation>
    </message>
    <message>
        <source>Cannot save</source>
        <translation>无法保存</translation>
    </message>
    <message>
        <source>Saved {0}</source>
        <translation>已保存 {0}</translation>
    </message>
    <message>
        <source>(none yet)</source>
        <translation>（暂无）</translation>
    </message>
    <message>
        <source>Export</source>
        <translation>导出</translation>
    </message>
    <message>
        <source>Cannot export</source>
        <translation>无法导出</translation>
    </message>
    <message>
        <source>{0} was not exported: {1}</source>
        <translation>{0} 未能导出：{1}</translation>
    </message>
    <message>
        <source>Exported {0}</source>
        <translation>已导出 {0}</translation>
    </message>
    <message>
        <source>Copied to the clipboard.</source>
        <translation>已复制到剪贴板。</translation>
    </message>
    <message>
        <source>Restore unsaved work</source>
        <translation>恢复未保存的工作</translation>
    </message>
    <message>
        <source>Attention Explorer did not close normally. Restore the scenario autosaved on {0}?</source>
        <translation>Attention Explorer 没有正常关闭。要恢复 {0} 自动保存的场景吗？</translation>
    </message>
    <message>
        <source>{1} windows did not close normally. Restore the scenario autosaved on {0} ({2} of {1}, newest first)? Yes keeps the others for the next start; No discards this one and offers the next.</source>
        <translation>有 {1} 个窗口没有正常关闭。要恢复 {0} 自动保存的场景吗（第 {2} 个，共 {1} 个，最新的在前）？选“是”则其余的留到下次启动；选“否”则丢弃这一个并询问下一个。</translation>
    </message>
    <message>
        <source>Restore unsaved work?</source>
        <translation>恢复未保存的工作？</translation>
    </message>
    <message>
        <source>Edits not protected: no recovery copy ({0})</source>
        <translation>编辑未受保护：没有恢复副本（{0}）</translation>
    </message>
    <message>
        <source>The copy that restores these edits after a crash cannot be written to {0}. Save them to keep them; this warning goes once a copy is written again.</source>
        <translation>用于在崩溃后恢复这些编辑的副本无法写入 {0}。请保存以留住它们；一旦再次写入副本，此警告就会消失。</translation>
    </message>
    <message>
        <source>Not autosaved (the last copy that fitted is kept): {0}</source>
        <translation>未自动保存（保留最后一份未超限的副本）：{0}</translation>
    </message>
    <message>
        <source>Move the factor slider or press ÷ 10 and × 10; drag a key on the Vectors page and the curves follow.</source>
        <translation>拖动缩放因子滑块，或按 ÷ 10 和 × 10；在“向量”页拖动一个键向量，曲线随之变化。</translation>
    </message>
    <message>
        <source>Drag d_k and N; New seed draws fresh random vectors.</source>
        <translation>拖动 d_k 和 N；“换种子”会重新抽取随机向量。</translation>
    </message>
    <message>
        <source>Type a sentence or edit X and the W&apos;s; hover a cell for q·k, click a row to explore it.</source>
        <translation>输入句子，或编辑 X 和各个 W；悬停在格子上查看 q·k，点击一行去探索它。</translation>
    </message>
    <message>
        <source>Open a model folder, type a sentence and press Show; nothing is downloaded.</source>
        <translation>打开一个模型文件夹，输入句子后按“显示”；不会下载任何东西。</translation>
    </message>
    <message>
        <source>Change d_model and h; click a head or a row of its maps to explore that query.</source>
        <translation>改变 d_model 和 h；点击某个头或其图中的一行，在画布上探索该查询。</translation>
    </message>
    <message>
        <source>Spot the bug</source>
        <translation>找错误</translation>
    </message>
    <message>
        <source>Training: scaled vs unscaled</source>
        <translation>训练：缩放与不缩放</translation>
    </message>
    <message>
        <source>Drag the tip of Q or of a key. Keys 1–9 select, arrows rotate, Space plays a full turn.</source>
        <translation>拖动 Q 或键向量的箭头尖端。按键 1–9 选择键向量，方向键旋转，空格键转一整圈。</translation>
    </message>
    <message>
        <source>Untitled scenario</source>
        <translation>未命名场景</translation>
    </message>
    <message>
        <source>{0}{1} — Attention Explorer</source>
        <translation>{0}{1} — Attention Explorer</translation>
    </message>
    <message>
        <source>Attention Explorer lecture script (*.json);;All files (*)</source>
        <translation>Attention Explorer 讲稿 (*.json);;所有文件 (*)</translation>
    </message>
    <message>
        <source>Cannot open the lecture script</source>
        <translation>无法打开讲稿</translation>
    </message>
    <message>
        <source>Open lecture script</source>
        <translation>打开讲稿</translation>
    </message>
    <message>
        <source>{0} is no longer on the disk (deleted, moved or renamed). The window still shows its scenario; Save writes it again.</source>
        <translation>磁盘上已没有 {0}（已被删除、移动或改名）。窗口仍显示它的场景；保存会重新写入。</translation>
    </message>
    <message>
        <source>Dismiss</source>
        <translation>关闭提示</translation>
    </message>
    <message>
        <source>{0} was changed on the disk by another window or program. Reload it, or keep this window&apos;s version (Save asks before overwriting the file).</source>
        <translation>{0} 在磁盘上已被另一个窗口或程序修改。请重新载入，或保留本窗口的版本（保存时会先询问是否覆盖该文件）。</translation>
    </message>
    <message>
        <source>{0}, the file of the page “{1}”, is no longer on the disk (deleted, moved or renamed). The page still shows its scene; Save writes it again.</source>
        <translation>“{1}”页的文件 {0} 已不在磁盘上（已被删除、移动或改名）。该页仍显示它的场景；保存会重新写入。</translation>
    </message>
    <message>
        <source>{0}, the file of the page “{1}”, was changed on the disk by another window or program. Reload it, or keep this window&apos;s version (Save asks before overwriting the file).</source>
        <translation>“{1}”页的文件 {0} 在磁盘上已被另一个窗口或程序修改。请重新载入，或保留本窗口的版本（保存时会先询问是否覆盖该文件）。</translation>
    </message>
    <message>
        <source>Keep this window&apos;s version</source>
        <translation>保留本窗口的版本</translation>
    </message>
    <message>
        <source>Reload</source>
        <translation>重新载入</translation>
    </message>
    <message>
        <source>Show the file as it is on the disk now (Edit ▸ Undo brings this window&apos;s version back)</source>
        <translation>显示该文件在磁盘上的当前内容（编辑 ▸ 撤销可恢复本窗口的版本）</translation>
    </message>
    <message>
        <source>Save</source>
        <translation>保存</translation>
    </message>
    <message>
        <source>File changed on disk</source>
        <translation>文件已在磁盘上被修改</translation>
    </message>
    <message>
        <source>{0} was changed on the disk by another window or program since this window opened or saved it. Overwriting it loses those changes.</source>
        <translation>自本窗口打开或保存 {0} 以来，它已在磁盘上被另一个窗口或程序修改。覆盖会丢失那些修改。</translation>
    </message>
    <message>
        <source>Overwrite</source>
        <translation>覆盖</translation>
    </message>
    <message>
        <source>Save As…</source>
        <translation>另存为…</translation>
    </message>
    <message>
        <source>Cannot reload the file</source>
        <translation>无法重新载入文件</translation>
    </message>
    <message>
        <source>{0} no longer holds a scene of this page: open it with File ▸ Open.</source>
        <translation>{0} 中已不是这一页的场景：请用“文件 ▸ 打开”打开它。</translation>
    </message>
    <message>
        <source>“{0}” has changes that are not saved. Reloading {1} replaces them with the file as it is on the disk (Edit ▸ Undo brings them back).</source>
        <translation>“{0}”有尚未保存的更改。重新载入 {1} 会用磁盘上该文件的当前内容替换它们（编辑 ▸ 撤销可恢复）。</translation>
    </message>
    <message>
        <source>The scenario has changes that are not saved. Reloading {0} replaces them with the file as it is on the disk (Edit ▸ Undo brings them back).</source>
        <translation>场景有尚未保存的更改。重新载入 {0} 会用磁盘上该文件的当前内容替换它们（编辑 ▸ 撤销可恢复）。</translation>
    </message>
</context>
<context>
    <name>MaskFormula</name>
    <message>
        <source>above the diagonal (causal)</source>
        <translation>对角线以上（因果）</translation>
    </message>
    <message>
        <source> … ({0} in all)</source>
        <translation> …（共 {0} 个）</translation>
    </message>
    <message>
        <source>in the columns of the padding tokens {0}</source>
        <translation>填充词元 {0} 所在的列</translation>
    </message>
    <message>
        <source>M = 0: no mask, every query looks at every key.</source>
        <translation>M = 0：没有掩码，每个查询都关注每个键向量。</translation>
    </message>
    <message>
        <source> and </source>
        <translation>以及</translation>
    </message>
    <message>
        <source>M is {0} {1}, 0 elsewhere.</source>
        <translation>M 在{1}为 {0}，其余为 0。</translation>
    </message>
</context>
<context>
    <name>MultiHeadLab</name>
    <message>
        <source>Opened “{0}”.</source>
        <translation>已打开“{0}”。</translation>
    </message>
    <message>
        <source>Head {0}: “{1}” as the query</source>
        <translation>头 {0}：以“{1}”为查询</translation>
    </message>
    <message>
        <source>Multi-head attention, head {0} of {1}: the query is row {2} of Q_{0} = X·W_Q[:, {3}…{4}] (the token “{5}”), the keys and values are the rows of K_{0} and V_{0}, each d_k = {6} wide.</source>
        <translation>多头注意力，第 {0} 个头（共 {1} 个）：查询是 Q_{0} = X·W_Q[:, {3}…{4}] 的第 {2} 行（词元“{5}”），键向量和值向量是 K_{0} 和 V_{0} 的各行，每行宽 d_k = {6}。</translation>
    </message>
    <message>
        <source>Causal mask: only the keys up to “{0}” (the first {1}) are included.</source>
        <translation>因果掩码：只包含到“{0}”为止的键向量（前 {1} 个）。</translation>
    </message>
    <message>
        <source>Head {0}, “{1}” is now the query in the explorer: drag it on the canvas.</source>
        <translation>头 {0}，“{1}”现在是探索器中的查询：在画布上拖动它。</translation>
    </message>
    <message>
        <source>&lt;span style=&quot;color:{0}&quot;&gt;&lt;b&gt;Head {1}&lt;/b&gt;&lt;/span&gt;, query “{2}”: {3} of W&lt;sub&gt;Q&lt;/sub&gt;, W&lt;sub&gt;K&lt;/sub&gt;, W&lt;sub&gt;V&lt;/sub&gt;. Click a head&apos;s title or a row of its maps to explore that query on the canvas.</source>
        <translation>&lt;span style=&quot;color:{0}&quot;&gt;&lt;b&gt;头 {1}&lt;/b&gt;&lt;/span&gt;，查询“{2}”：W&lt;sub&gt;Q&lt;/sub&gt;、W&lt;sub&gt;K&lt;/sub&gt;、W&lt;sub&gt;V&lt;/sub&gt; 的{3}。点击头的标题或其图中的一行，在画布上探索该查询。</translation>
    </message>
    <message>
        <source>column {0}</source>
        <translation>第 {0} 列</translation>
    </message>
    <message>
        <source>columns {0}…{1}</source>
        <translation>第 {0}…{1} 列</translation>
    </message>
    <message>
        <source>N = &lt;b&gt;{0}&lt;/b&gt; tokens, d&lt;sub&gt;model&lt;/sub&gt; = &lt;b&gt;{1}&lt;/b&gt;, h = &lt;b&gt;{2}&lt;/b&gt; heads, d&lt;sub&gt;k&lt;/sub&gt; = d&lt;sub&gt;v&lt;/sub&gt; = d&lt;sub&gt;model&lt;/sub&gt; / h = &lt;b&gt;{3}&lt;/b&gt;</source>
        <translation>N = &lt;b&gt;{0}&lt;/b&gt; 个词元，d&lt;sub&gt;model&lt;/sub&gt; = &lt;b&gt;{1}&lt;/b&gt;，h = &lt;b&gt;{2}&lt;/b&gt; 个头，d&lt;sub&gt;k&lt;/sub&gt; = d&lt;sub&gt;v&lt;/sub&gt; = d&lt;sub&gt;model&lt;/sub&gt; / h = &lt;b&gt;{3}&lt;/b&gt;</translation>
    </message>
    <message>
        <source>1/√{0} = {1}</source>
        <translation>1/√{0} = {1}</translation>
    </message>
    <message>
        <source>head&lt;sub&gt;i&lt;/sub&gt; = softmax(Q&lt;sub&gt;i&lt;/sub&gt;K&lt;sub&gt;i&lt;/sub&gt;&lt;sup&gt;T&lt;/sup&gt; × {0}{1})·V&lt;sub&gt;i&lt;/sub&gt;, &amp;nbsp; MultiHead(X) = Concat(head&lt;sub&gt;1&lt;/sub&gt;, …, head&lt;sub&gt;{2}&lt;/sub&gt;)·W&lt;sub&gt;O&lt;/sub&gt;</source>
        <translation>头&lt;sub&gt;i&lt;/sub&gt; = softmax(Q&lt;sub&gt;i&lt;/sub&gt;K&lt;sub&gt;i&lt;/sub&gt;&lt;sup&gt;T&lt;/sup&gt; × {0}{1})·V&lt;sub&gt;i&lt;/sub&gt;, &amp;nbsp; 多头(X) = 拼接(头&lt;sub&gt;1&lt;/sub&gt;, …, 头&lt;sub&gt;{2}&lt;/sub&gt;)·W&lt;sub&gt;O&lt;/sub&gt;</translation>
    </message>
    <message>
        <source> + M (causal)</source>
        <translation> + M（因果）</translation>
    </message>
    <message>
        <source>&lt;b&gt;W&lt;sub&gt;Q&lt;/sub&gt;&lt;/b&gt;: &lt;b&gt;{0}&lt;/b&gt;, {1} slices of &lt;b&gt;{2}&lt;/b&gt;, one per head (its colour)</source>
        <translation>&lt;b&gt;W&lt;sub&gt;Q&lt;/sub&gt;&lt;/b&gt;：&lt;b&gt;{0}&lt;/b&gt;，{1} 片 &lt;b&gt;{2}&lt;/b&gt;，每个头一片（其颜色）</translation>
    </message>
    <message>
        <source>&lt;b&gt;W&lt;sub&gt;K&lt;/sub&gt;&lt;/b&gt;: &lt;b&gt;{0}&lt;/b&gt;, {1} slices of &lt;b&gt;{2}&lt;/b&gt;, one per head</source>
        <translation>&lt;b&gt;W&lt;sub&gt;K&lt;/sub&gt;&lt;/b&gt;：&lt;b&gt;{0}&lt;/b&gt;，{1} 片 &lt;b&gt;{2}&lt;/b&gt;，每个头一片</translation>
    </message>
    <message>
        <source>&lt;b&gt;W&lt;sub&gt;V&lt;/sub&gt;&lt;/b&gt;: &lt;b&gt;{0}&lt;/b&gt;, {1} slices of &lt;b&gt;{2}&lt;/b&gt;, one per head</source>
        <translation>&lt;b&gt;W&lt;sub&gt;V&lt;/sub&gt;&lt;/b&gt;：&lt;b&gt;{0}&lt;/b&gt;，{1} 片 &lt;b&gt;{2}&lt;/b&gt;，每个头一片</translation>
    </message>
    <message>
        <source>&lt;b&gt;{0}&lt;/b&gt; = X·W&lt;sub&gt;{0}&lt;/sub&gt;: &lt;b&gt;{1}&lt;/b&gt;; head i uses its own &lt;b&gt;{2}&lt;/b&gt; slice {0}&lt;sub&gt;i&lt;/sub&gt;</source>
        <translation>&lt;b&gt;{0}&lt;/b&gt; = X·W&lt;sub&gt;{0}&lt;/sub&gt;：&lt;b&gt;{1}&lt;/b&gt;；头 i 使用自己的 &lt;b&gt;{2}&lt;/b&gt; 切片 {0}&lt;sub&gt;i&lt;/sub&gt;</translation>
    </message>
    <message>
        <source>&lt;b&gt;X&lt;/b&gt;: one embedding row per token, &lt;b&gt;{0}&lt;/b&gt; (seeded N(0, 1) for new words)</source>
        <translation>&lt;b&gt;X&lt;/b&gt;：每个词元一行嵌入，&lt;b&gt;{0}&lt;/b&gt;（新词为带种子的 N(0, 1)）</translation>
    </message>
    <message>
        <source>&lt;b&gt;Concat&lt;/b&gt;(head&lt;sub&gt;1&lt;/sub&gt;, …, head&lt;sub&gt;{0}&lt;/sub&gt;): {0} × ({1}) side by side = &lt;b&gt;{2}&lt;/b&gt;</source>
        <translation>&lt;b&gt;Concat&lt;/b&gt;(head&lt;sub&gt;1&lt;/sub&gt;, …, head&lt;sub&gt;{0}&lt;/sub&gt;)：{0} 个 ({1}) 并排 = &lt;b&gt;{2}&lt;/b&gt;</translation>
    </message>
    <message>
        <source>&lt;b&gt;W&lt;sub&gt;O&lt;/sub&gt;&lt;/b&gt;: &lt;b&gt;{0}&lt;/b&gt;; its rows {1}…{2} take head 1&apos;s part, and so on: it mixes the heads</source>
        <translation>&lt;b&gt;W&lt;sub&gt;O&lt;/sub&gt;&lt;/b&gt;：&lt;b&gt;{0}&lt;/b&gt;；第 {1}…{2} 行取头 1 的部分，依此类推：它把各头混合起来</translation>
    </message>
    <message>
        <source>&lt;b&gt;Output&lt;/b&gt; = Concat·W&lt;sub&gt;O&lt;/sub&gt;: ({0}) · ({1}) = &lt;b&gt;{0}&lt;/b&gt;, one row per token as wide as the input</source>
        <translation>&lt;b&gt;输出&lt;/b&gt; = Concat·W&lt;sub&gt;O&lt;/sub&gt;：({0}) · ({1}) = &lt;b&gt;{0}&lt;/b&gt;，每个词元一行，与输入同宽</translation>
    </message>
    <message>
        <source>Head {0} · {1}</source>
        <translation>头 {0} · {1}</translation>
    </message>
    <message>
        <source>Scores Q_{0}·K_{0}ᵀ ({1}) above, the row softmax below; click to explore this head on the canvas</source>
        <translation>上为分数 Q_{0}·K_{0}ᵀ（{1}），下为按行 softmax；点击在画布上探索此头</translation>
    </message>
    <message>
        <source>Sentence</source>
        <translation>句子</translation>
    </message>
    <message>
        <source>Words separated by spaces, or Chinese without spaces</source>
        <translation>用空格分词，或直接输入不带空格的中文</translation>
    </message>
    <message>
        <source>Type a sentence and press Enter (1 to 512 tokens): words separated by spaces, or Chinese without spaces, which becomes one token per character as Chinese BERT splits it (我爱北京 → 我 爱 北 京)</source>
        <translation>输入一句话后按回车（1 到 512 个词元）：词与词用空格隔开；不带空格的中文按字切分，每个字一个词元，和中文 BERT 一样（我爱北京 → 我 爱 北 京）</translation>
    </message>
    <message>
        <source>d_model</source>
        <translation>d_model</translation>
    </message>
    <message>
        <source>h</source>
        <translation>h</translation>
    </message>
    <message>
        <source>seed</source>
        <translation>种子</translation>
    </message>
    <message>
        <source>Width of each embedding; a new width draws new seeded X and W (it must be a multiple of h)</source>
        <translation>每个嵌入的宽度；新的宽度会重新抽取带种子的 X 和 W（必须是 h 的倍数）</translation>
    </message>
    <message>
        <source>Number of heads: the same W_Q, W_K, W_V, W_O cut into h slices of d_model / h columns (h must divide d_model)</source>
        <translation>头数：同样的 W_Q、W_K、W_V、W_O 切成 h 片，每片 d_model / h 列（h 必须整除 d_model）</translation>
    </message>
    <message>
        <source>Changing the seed draws new random X and W</source>
        <translation>改变种子会抽取新的随机 X 和 W</translation>
    </message>
    <message>
        <source>Q, K, V</source>
        <translation>Q、K、V</translation>
    </message>
    <message>
        <source>Concat, W_O, output</source>
        <translation>拼接、W_O、输出</translation>
    </message>
    <message>
        <source>Causal mask</source>
        <translation>因果掩码</translation>
    </message>
    <message>
        <source>−∞ above the diagonal before softmax, in every head</source>
        <translation>在每个头中，softmax 之前对角线以上为 −∞</translation>
    </message>
    <message>
        <source>Scale by 1/√d_k</source>
        <translation>按 1/√d_k 缩放</translation>
    </message>
    <message>
        <source>Off: softmax of the raw scores (factor 1)</source>
        <translation>关闭：对原始分数做 softmax（因子 1）</translation>
    </message>
</context>
<context>
    <name>Numbers</name>
    <message>
        <source>an empty cell is not a number</source>
        <translation>空单元格不是数字</translation>
    </message>
    <message>
        <source>“{0}” is not a number</source>
        <translation>“{0}”不是数字</translation>
    </message>
    <message>
        <source>“{0}” is out of range (|x| must be at most {1:g})</source>
        <translation>“{0}”超出范围（|x| 不能超过 {1:g}）</translation>
    </message>
    <message>
        <source>nothing to paste</source>
        <translation>没有可粘贴的内容</translation>
    </message>
    <message>
        <source>the pasted rows have different lengths</source>
        <translation>粘贴的各行长度不一致</translation>
    </message>
</context>
<context>
    <name>OutputColumn</name>
    <message>
        <source>&lt;b&gt;Output A·V&lt;/b&gt;&lt;br/&gt;({0}) · ({1}) = &lt;b&gt;{2}&lt;/b&gt;</source>
        <translation>&lt;b&gt;输出 A·V&lt;/b&gt;&lt;br/&gt;({0}) · ({1}) = &lt;b&gt;{2}&lt;/b&gt;</translation>
    </message>
    <message>
        <source>A·V: N×N · N×d_v = N×d_v, one output row per token</source>
        <translation>A·V：N×N · N×d_v = N×d_v，每个词元一行输出</translation>
    </message>
    <message>
        <source>&lt;b&gt;A·V&lt;/b&gt;: o&lt;sub&gt;i&lt;/sub&gt; = Σ&lt;sub&gt;j&lt;/sub&gt; a&lt;sub&gt;ij&lt;/sub&gt; v&lt;sub&gt;j&lt;/sub&gt;</source>
        <translation>&lt;b&gt;A·V&lt;/b&gt;：o&lt;sub&gt;i&lt;/sub&gt; = Σ&lt;sub&gt;j&lt;/sub&gt; a&lt;sub&gt;ij&lt;/sub&gt; v&lt;sub&gt;j&lt;/sub&gt;</translation>
    </message>
    <message>
        <source>Hover over an output row: its row of A is outlined and every row of V is tinted by its weight.</source>
        <translation>悬停在某一输出行上：A 中对应的行会被框出，V 的每一行按其权重着色。</translation>
    </message>
    <message>
        <source>&lt;b&gt;V&lt;/b&gt; tinted by row “{0}” of A</source>
        <translation>&lt;b&gt;V&lt;/b&gt;，按 A 中“{0}”一行着色</translation>
    </message>
    <message>
        <source>&lt;b&gt;V&lt;/b&gt;: &lt;b&gt;{0}&lt;/b&gt;</source>
        <translation>&lt;b&gt;V&lt;/b&gt;：&lt;b&gt;{0}&lt;/b&gt;</translation>
    </message>
    <message>
        <source>… ({0} more)</source>
        <translation>…（另有 {0} 项）</translation>
    </message>
    <message>
        <source>o&lt;sub&gt;{0}&lt;/sub&gt; = Σ&lt;sub&gt;j&lt;/sub&gt; a&lt;sub&gt;{0}j&lt;/sub&gt; v&lt;sub&gt;j&lt;/sub&gt; = {1} = &lt;b&gt;[{2}]&lt;/b&gt;</source>
        <translation>o&lt;sub&gt;{0}&lt;/sub&gt; = Σ&lt;sub&gt;j&lt;/sub&gt; a&lt;sub&gt;{0}j&lt;/sub&gt; v&lt;sub&gt;j&lt;/sub&gt; = {1} = &lt;b&gt;[{2}]&lt;/b&gt;</translation>
    </message>
</context>
<context>
    <name>OutputView</name>
    <message>
        <source>output</source>
        <translation>输出</translation>
    </message>
    <message>
        <source>Dots: the values V in their keys&apos; colours (bigger = more weight). Dashed: their convex hull. ★ the output, their weighted average: it never leaves the hull.</source>
        <translation>圆点：各个值 V，颜色与其键向量相同（越大权重越高）。虚线：它们的凸包。★ 是输出，即它们的加权平均，永远不会越出凸包。</translation>
    </message>
    <message>
        <source>★ output: the weighted average of the V&apos;s</source>
        <translation>★ 输出：各个 V 的加权平均</translation>
    </message>
    <message>
        <source>Purple bars: the output&apos;s components. Grey: the range the V&apos;s span in each component; dots: the V&apos;s themselves (bigger = more weight).</source>
        <translation>紫色柱：输出的各个分量。灰色：各个 V 在每个分量上的取值范围；圆点：各个 V 本身（越大权重越高）。</translation>
    </message>
    <message>
        <source>Bars: output; grey: range of the V&apos;s</source>
        <translation>柱：输出；灰色：各个 V 的范围</translation>
    </message>
    <message>
        <source>, … ({0} components)</source>
        <translation>, …（共 {0} 个分量）</translation>
    </message>
    <message>
        <source>component</source>
        <translation>分量</translation>
    </message>
    <message>
        <source>output = Σ wᵢVᵢ = [{0}]: the weighted average of the V&apos;s</source>
        <translation>输出 = Σ wᵢVᵢ = [{0}]：各个 V 的加权平均</translation>
    </message>
    <message>
        <source>V of {0}: weight {1} — click to select</source>
        <translation>{0} 的 V：权重 {1} — 点击选中</translation>
    </message>
</context>
<context>
    <name>PaddingButton</name>
    <message>
        <source>Padding mask</source>
        <translation>填充掩码</translation>
    </message>
    <message>
        <source>−∞ in the columns of padding tokens before softmax: no query looks at them. The arrow beside it chooses which tokens are padding.</source>
        <translation>softmax 之前在填充词元的列中置为 −∞：任何查询都不会关注它们。旁边的箭头用来选择哪些词元是填充。</translation>
    </message>
</context>
<context>
    <name>PinComparisonModel</name>
    <message>
        <source>scale factor</source>
        <translation>缩放因子</translation>
    </message>
    <message>
        <source>q·k {0}</source>
        <translation>q·k {0}</translation>
    </message>
    <message>
        <source>weight {0}</source>
        <translation>权重 {0}</translation>
    </message>
    <message>
        <source>entropy (bits)</source>
        <translation>熵（比特）</translation>
    </message>
    <message>
        <source>output {0}</source>
        <translation>输出 {0}</translation>
    </message>
    <message>
        <source>θ {0}</source>
        <translation>θ {0}</translation>
    </message>
    <message>
        <source>not defined here</source>
        <translation>此处无定义</translation>
    </message>
    <message>
        <source>now</source>
        <translation>当前</translation>
    </message>
    <message>
        <source>now − {0}</source>
        <translation>当前 − {0}</translation>
    </message>
</context>
<context>
    <name>Pinning</name>
    <message>
        <source>Three pins at most: remove one (Edit ▸ Remove all pins, or its button in the Pins panel) before pinning another.</source>
        <translation>最多三个快照：请先删除一个（编辑 ▸ 删除全部快照，或快照面板中的按钮）再固定新的。</translation>
    </message>
    <message>
        <source>Pinned as {0}: its ghost stays in the canvas, the weights and the output; the Pins panel lists what changes.</source>
        <translation>已固定为 {0}：它的虚影留在画布、权重图和输出中；快照面板列出变化。</translation>
    </message>
    <message>
        <source>There are no pins to remove.</source>
        <translation>没有可删除的快照。</translation>
    </message>
</context>
<context>
    <name>Pins</name>
    <message>
        <source>Pin {0}</source>
        <translation>快照 {0}</translation>
    </message>
</context>
<context>
    <name>PinsTable</name>
    <message>
        <source>What changed since each pin: the numbers now, the pinned ones, and now − pin. P pins the scene (up to three).</source>
        <translation>每个快照以来的变化：当前数值、快照数值以及“当前 − 快照”。按 P 固定场景（最多三个）。</translation>
    </message>
    <message>
        <source>✕ Remove {0}</source>
        <translation>✕ 删除 {0}</translation>
    </message>
    <message>
        <source>Remove this pin (Ctrl+Z brings it back)</source>
        <translation>删除此快照（Ctrl+Z 可恢复）</translation>
    </message>
</context>
<context>
    <name>PositionalLab</name>
    <message>
        <source>Move m and n: RoPE&apos;s q·k stays put while m − n stays the same; the sinusoidal one does not.</source>
        <translation>移动 m 和 n：只要 m − n 不变，RoPE 的 q·k 就不变；正弦编码的则会变。</translation>
    </message>
    <message>
        <source>{0} = {1}</source>
        <translation>{0} = {1}</translation>
    </message>
    <message>
        <source>q and k given by the scene (d = {0})</source>
        <translation>场景给出的 q 和 k（d = {0}）</translation>
    </message>
    <message>
        <source>{0}: q and k before RoPE, base θ = {1}</source>
        <translation>{0}：RoPE 之前的 q 和 k，底数 θ = {1}</translation>
    </message>
    <message>
        <source>{0} RoPE&apos;s base θ = {1}: pair i turns by {1}^(−2i/d) per position; d, seed draw random vectors again.</source>
        <translation>{0} RoPE 的底数 θ = {1}：第 i 对每个位置转 {1}^(−2i/d)；改 d 或种子会重新抽取随机向量。</translation>
    </message>
    <message>
        <source>(q + p&lt;sub&gt;m&lt;/sub&gt;)·(k + p&lt;sub&gt;n&lt;/sub&gt;) = &lt;b&gt;{0}&lt;/b&gt; &amp;nbsp; at m = {1}, n = {2}</source>
        <translation>(q + p&lt;sub&gt;m&lt;/sub&gt;)·(k + p&lt;sub&gt;n&lt;/sub&gt;) = &lt;b&gt;{0}&lt;/b&gt; &amp;nbsp; 此时 m = {1}，n = {2}</translation>
    </message>
    <message>
        <source>R(m)q · R(n)k = &lt;b&gt;{0}&lt;/b&gt; &amp;nbsp; at m − n = {3} (m = {1}, n = {2})</source>
        <translation>R(m)q · R(n)k = &lt;b&gt;{0}&lt;/b&gt; &amp;nbsp; 此时 m − n = {3}（m = {1}，n = {2}）</translation>
    </message>
    <message>
        <source>&lt;b&gt;Pair {0} of q and k in the plane&lt;/b&gt;: θ&lt;sub&gt;{0}&lt;/sub&gt; = {1} rad per position</source>
        <translation>&lt;b&gt;q 与 k 的第 {0} 对分量（平面中）&lt;/b&gt;：θ&lt;sub&gt;{0}&lt;/sub&gt; = 每个位置 {1} 弧度</translation>
    </message>
    <message>
        <source>q turned by mθ = {0}°, k by nθ = {1}°. The angle from k to q goes from {2}° to &lt;b&gt;{3}&lt;/b&gt;°: it changes by (m − n)θ = {4}°, so this pair&apos;s share of q·k, |q||k| cos = &lt;b&gt;{5}&lt;/b&gt;, depends on m − n only.</source>
        <translation>q 转过 mθ = {0}°，k 转过 nθ = {1}°。从 k 到 q 的夹角由 {2}° 变为 &lt;b&gt;{3}&lt;/b&gt;°：变化量为 (m − n)θ = {4}°，所以这一对在 q·k 中的份额 |q||k| cos = &lt;b&gt;{5}&lt;/b&gt; 只取决于 m − n。</translation>
    </message>
    <message>
        <source>n = {0}</source>
        <translation>n = {0}</translation>
    </message>
    <message>
        <source>&lt;b&gt;Sinusoidal&lt;/b&gt; encodings are &lt;i&gt;added&lt;/i&gt;: (q + p&lt;sub&gt;m&lt;/sub&gt;)·(k + p&lt;sub&gt;n&lt;/sub&gt;) has terms in m and in n on their own, so the same offset m − n gives different q·k at different places. &lt;b&gt;RoPE&lt;/b&gt; &lt;i&gt;rotates&lt;/i&gt; every pair of q by mθ&lt;sub&gt;i&lt;/sub&gt; and of k by nθ&lt;sub&gt;i&lt;/sub&gt;: turning both keeps the angle between them up to (m − n)θ&lt;sub&gt;i&lt;/sub&gt;, so q·k depends on m − n only and its curves coincide.</source>
        <translation>&lt;b&gt;正弦&lt;/b&gt;编码是&lt;i&gt;加&lt;/i&gt;上去的：(q + p&lt;sub&gt;m&lt;/sub&gt;)·(k + p&lt;sub&gt;n&lt;/sub&gt;) 含有单独依赖 m 和单独依赖 n 的项，所以同一个偏移 m − n 在不同位置给出不同的 q·k。&lt;b&gt;RoPE&lt;/b&gt; 把 q 的每一对分量&lt;i&gt;旋转&lt;/i&gt; mθ&lt;sub&gt;i&lt;/sub&gt;、把 k 的旋转 nθ&lt;sub&gt;i&lt;/sub&gt;：两者一起转动时，它们之间的夹角只改变 (m − n)θ&lt;sub&gt;i&lt;/sub&gt;，所以 q·k 只取决于 m − n，各条曲线重合。</translation>
    </message>
    <message>
        <source>d</source>
        <translation>d</translation>
    </message>
    <message>
        <source>frequency pair i</source>
        <translation>频率对 i</translation>
    </message>
    <message>
        <source>seed</source>
        <translation>种子</translation>
    </message>
    <message>
        <source>Width of q and k: an even number (sin and cos come in pairs), up to {0} here</source>
        <translation>q 和 k 的维数：偶数（sin 与 cos 成对出现），这里最多 {0}</translation>
    </message>
    <message>
        <source>The pair (q[2i], q[2i+1]) drawn in the plane; θ_i = 10000^(−2i/d)</source>
        <translation>在平面中画出的分量对 (q[2i], q[2i+1])；θ_i = 10000^(−2i/d)</translation>
    </message>
    <message>
        <source>Another fixed pair of random vectors q and k</source>
        <translation>另一对固定的随机向量 q 和 k</translation>
    </message>
    <message>
        <source>The query&apos;s position m</source>
        <translation>查询的位置 m</translation>
    </message>
    <message>
        <source>The key&apos;s position n</source>
        <translation>键向量的位置 n</translation>
    </message>
    <message>
        <source>&lt;b&gt;Sinusoidal, added&lt;/b&gt;: q·k against m − n, one curve per key position n</source>
        <translation>&lt;b&gt;正弦编码（相加）&lt;/b&gt;：q·k 随 m − n 的变化，每个键向量位置 n 一条曲线</translation>
    </message>
    <message>
        <source>&lt;b&gt;RoPE, rotated&lt;/b&gt;: q·k against m − n, one curve per key position n</source>
        <translation>&lt;b&gt;RoPE（旋转）&lt;/b&gt;：q·k 随 m − n 的变化，每个键向量位置 n 一条曲线</translation>
    </message>
    <message>
        <source>m − n</source>
        <translation>m − n</translation>
    </message>
</context>
<context>
    <name>PresenterKeys</name>
    <message>
        <source>Next: the answer, the next step, the next scene</source>
        <translation>下一个：答案、下一步、下一个场景</translation>
    </message>
    <message>
        <source>Back a step or a scene</source>
        <translation>后退一步或一个场景</translation>
    </message>
    <message>
        <source>The lecture from its first scene</source>
        <translation>从第一个场景重新开始讲解</translation>
    </message>
    <message>
        <source>Black screen; any key brings the window back</source>
        <translation>黑屏；按任意键恢复窗口</translation>
    </message>
    <message>
        <source>Hold for a spotlight: a bright circle on the mouse pointer</source>
        <translation>按住显示聚光灯：鼠标指针处一个明亮的圆圈</translation>
    </message>
    <message>
        <source>Larger, smaller</source>
        <translation>放大、缩小</translation>
    </message>
    <message>
        <source>Presentation on or off</source>
        <translation>打开或关闭演示模式</translation>
    </message>
    <message>
        <source>Leave: a turn, the steps, then the presentation</source>
        <translation>退出：先停旋转，再退出分步，最后退出演示</translation>
    </message>
    <message>
        <source>This list</source>
        <translation>显示本列表</translation>
    </message>
    <message>
        <source>Presentation keys</source>
        <translation>演示按键</translation>
    </message>
    <message>
        <source>Any key closes this list.</source>
        <translation>按任意键关闭本列表。</translation>
    </message>
</context>
<context>
    <name>PresetInfo</name>
    <message>
        <source>Your own scenario</source>
        <translation>自定义场景</translation>
    </message>
    <message>
        <source>Edit Q, the keys and the values, or drag their tips on the canvas. Examples from the lecture are in the Examples menu.</source>
        <translation>编辑 Q、键向量和值向量，或者在画布上拖动它们的箭头尖端。课上讲到的例子都在“示例”菜单里。</translation>
    </message>
</context>
<context>
    <name>QuestionPanel</name>
    <message>
        <source>Flatter</source>
        <translation>更平缓</translation>
    </message>
    <message>
        <source>Sharper</source>
        <translation>更尖锐</translation>
    </message>
    <message>
        <source>Check</source>
        <translation>检查</translation>
    </message>
    <message>
        <source>Reveal</source>
        <translation>揭晓</translation>
    </message>
    <message>
        <source>Show the answer without guessing (→ or Page Down)</source>
        <translation>不猜，直接看答案（→ 或 Page Down）</translation>
    </message>
    <message>
        <source>Reset score</source>
        <translation>清零得分</translation>
    </message>
    <message>
        <source>Which key gets the largest weight? Click it: its bar, its arrow or its V.</source>
        <translation>哪个键向量得到的权重最大？点击它：它的柱、箭头或它的 V。</translation>
    </message>
    <message>
        <source>Drag {0} so that its weight is about {1}, then press Check.</source>
        <translation>拖动 {0}，使它的权重约为 {1}，然后按“检查”。</translation>
    </message>
    <message>
        <source>Where will the output land? Click the spot in the output view.</source>
        <translation>输出会落在哪里？在输出视图中点击那个位置。</translation>
    </message>
    <message>
        <source>d_k goes from {0} to {1} with the scale 1/√d_k on: do the weights get flatter or sharper?</source>
        <translation>d_k 从 {0} 变为 {1}，开启 1/√d_k 缩放：权重会变得更平缓还是更尖锐？</translation>
    </message>
    <message>
        <source>d_k goes from {0} to {1} with the scale off: do the weights get flatter or sharper?</source>
        <translation>d_k 从 {0} 变为 {1}，不缩放：权重会变得更平缓还是更尖锐？</translation>
    </message>
    <message>
        <source>d_k goes from {0} to {1} with the factor kept at × {2}: do the weights get flatter or sharper?</source>
        <translation>d_k 从 {0} 变为 {1}，缩放因子保持 × {2}：权重会变得更平缓还是更尖锐？</translation>
    </message>
    <message>
        <source>Which position does “{0}” (token {1}) attend to most? Click a cell of its row.</source>
        <translation>“{0}”（第 {1} 个词）最关注哪个位置？点击它那一行的一个格子。</translation>
    </message>
    <message>
        <source>No answer. The truth:</source>
        <translation>未作答。答案：</translation>
    </message>
    <message>
        <source>✓ Right.</source>
        <translation>✓ 答对了。</translation>
    </message>
    <message>
        <source>✗ Not quite.</source>
        <translation>✗ 不太对。</translation>
    </message>
    <message>
        <source>{0}&apos;s weight is {1}, {2} from the target {3} (tolerance ±{4}).</source>
        <translation>{0} 的权重是 {1}，离目标 {3} 差 {2}（容差 ±{4}）。</translation>
    </message>
    <message>
        <source>The output is ({0}, {1}).</source>
        <translation>输出是 ({0}, {1})。</translation>
    </message>
    <message>
        <source>Your click ({0}, {1}) is {2} away (within {3} counts).</source>
        <translation>你点的位置 ({0}, {1}) 相距 {2}（{3} 以内算对）。</translation>
    </message>
    <message>
        <source>The weights get sharper: entropy {0} → {1} bits.</source>
        <translation>权重变得更尖锐：熵 {0} → {1} 比特。</translation>
    </message>
    <message>
        <source>The weights get flatter: entropy {0} → {1} bits.</source>
        <translation>权重变得更平缓：熵 {0} → {1} 比特。</translation>
    </message>
    <message>
        <source>“{0}” attends most to “{1}” (position {2}), weight {3}.</source>
        <translation>“{0}”最关注“{1}”（第 {2} 个位置），权重 {3}。</translation>
    </message>
    <message>
        <source>{0} gets the largest weight, {1}.</source>
        <translation>{0} 的权重最大，为 {1}。</translation>
    </message>
    <message>
        <source>You chose {0} ({1}).</source>
        <translation>你选了 {0}（{1}）。</translation>
    </message>
    <message>
        <source>Score {0} of {1}</source>
        <translation>得分 {0} / {1}</translation>
    </message>
    <message>
        <source>Question mode: press → or Page Down; a question comes before each hidden step.</source>
        <translation>提问模式：按 → 或 Page Down；每个隐藏步骤揭晓前都会先提问。</translation>
    </message>
</context>
<context>
    <name>RecordDialog</name>
    <message>
        <source>Record</source>
        <translation>录制</translation>
    </message>
    <message>
        <source>The canvas</source>
        <translation>画布</translation>
    </message>
    <message>
        <source>The current page</source>
        <translation>当前页面</translation>
    </message>
    <message>
        <source>The whole window</source>
        <translation>整个窗口</translation>
    </message>
    <message>
        <source>While I drag (until Stop)</source>
        <translation>我拖动时（直到按“停止”）</translation>
    </message>
    <message>
        <source>A full turn of key</source>
        <translation>转一整圈的键向量</translation>
    </message>
    <message>
        <source> s</source>
        <translation> 秒</translation>
    </message>
    <message>
        <source>A turn moves a key of the Vectors page: show that page first</source>
        <translation>旋转的是“向量”页上的键向量：请先显示该页</translation>
    </message>
    <message>
        <source>in</source>
        <translation>用时</translation>
    </message>
    <message>
        <source>GIF</source>
        <translation>GIF</translation>
    </message>
    <message>
        <source>Animated WebP</source>
        <translation>动画 WebP</translation>
    </message>
    <message>
        <source>Animated PNG (APNG)</source>
        <translation>动画 PNG（APNG）</translation>
    </message>
    <message>
        <source>MP4 video (H.264)</source>
        <translation>MP4 视频（H.264）</translation>
    </message>
    <message>
        <source>MP4 needs the optional package imageio-ffmpeg, which brings its own ffmpeg: pip install &quot;attention-explorer[video]&quot;</source>
        <translation>MP4 需要可选软件包 imageio-ffmpeg（自带 ffmpeg）：pip install &quot;attention-explorer[video]&quot;</translation>
    </message>
    <message>
        <source>pixels</source>
        <translation>像素</translation>
    </message>
    <message>
        <source> frames a second</source>
        <translation> 帧/秒</translation>
    </message>
    <message>
        <source>Browse…</source>
        <translation>浏览…</translation>
    </message>
    <message>
        <source>Record:</source>
        <translation>录制：</translation>
    </message>
    <message>
        <source>While:</source>
        <translation>何时：</translation>
    </message>
    <message>
        <source>Format:</source>
        <translation>格式：</translation>
    </message>
    <message>
        <source>Size:</source>
        <translation>尺寸：</translation>
    </message>
    <message>
        <source>Frame rate:</source>
        <translation>帧率：</translation>
    </message>
    <message>
        <source>File:</source>
        <translation>文件：</translation>
    </message>
    <message>
        <source>Record to</source>
        <translation>录制到</translation>
    </message>
    <message>
        <source>Choose a file to record to.</source>
        <translation>请选择要录制到的文件。</translation>
    </message>
    <message>
        <source>{0} is not a file of the format chosen.</source>
        <translation>{0} 不是所选格式的文件。</translation>
    </message>
    <message>
        <source>{0} is a folder: choose a file name.</source>
        <translation>{0} 是文件夹：请选择一个文件名。</translation>
    </message>
    <message>
        <source>{0} exists. Replace it?</source>
        <translation>{0} 已存在。要替换它吗？</translation>
    </message>
</context>
<context>
    <name>Recorder</name>
    <message>
        <source>Stop recording</source>
        <translation>停止录制</translation>
    </message>
    <message>
        <source>Stop recording and write the file</source>
        <translation>停止录制并写入文件</translation>
    </message>
    <message>
        <source>Cannot record</source>
        <translation>无法录制</translation>
    </message>
    <message>
        <source>{0} was not written: {1}</source>
        <translation>未能写入 {0}：{1}</translation>
    </message>
    <message>
        <source>Recorded {0}: {1} frames, {2} s</source>
        <translation>已录制 {0}：{1} 帧，{2} 秒</translation>
    </message>
</context>
<context>
    <name>RecordingIndicator</name>
    <message>
        <source>● Recording {0} s</source>
        <translation>● 正在录制 {0} 秒</translation>
    </message>
    <message>
        <source>Stop</source>
        <translation>停止</translation>
    </message>
    <message>
        <source>Stop recording and write the file</source>
        <translation>停止录制并写入文件</translation>
    </message>
</context>
<context>
    <name>RotationTrace</name>
    <message>
        <source>Turning {0}: its weight (solid) and cos θ with Q (dashed) at every direction. Space plays a full turn, Esc stops.</source>
        <translation>旋转 {0}：它在每个方向上的权重（实线）以及与 Q 的 cos θ（虚线）。空格键转一整圈，Esc 停止。</translation>
    </message>
</context>
<context>
    <name>SaturationLab</name>
    <message>
        <source>× 10</source>
        <translation>× 10</translation>
    </message>
    <message>
        <source>Multiply the factor by 10: scores 2, 1, 0 act like 20, 10, 0 and softmax goes nearly one-hot</source>
        <translation>缩放因子乘以 10：分数 2、1、0 相当于 20、10、0，softmax 几乎变成 one-hot</translation>
    </message>
    <message>
        <source>÷ 10</source>
        <translation>÷ 10</translation>
    </message>
    <message>
        <source>Divide the factor by 10: the weights spread out again</source>
        <translation>缩放因子除以 10：权重重新分散</translation>
    </message>
    <message>
        <source>scale factor (log axis)</source>
        <translation>缩放因子（对数轴）</translation>
    </message>
    <message>
        <source>weight</source>
        <translation>权重</translation>
    </message>
    <message>
        <source>Drag to set the scale factor (one undo step per drag)</source>
        <translation>拖动以设置缩放因子（每次拖动算一步撤销）</translation>
    </message>
    <message>
        <source>A large factor makes softmax a hard choice: the entropy falls to 0 and so does ‖J‖ (the softmax Jacobian, which carries the gradient back to the scores): a saturated softmax barely learns. Dividing by √d_k keeps the factor in the soft part of the curves.</source>
        <translation>缩放因子一大，softmax 就成了非此即彼的选择：熵降到 0，‖J‖（softmax 的雅可比矩阵，负责把梯度传回分数）也降到 0，饱和的 softmax 几乎学不到东西。除以 √d_k 让缩放因子停留在曲线平缓的部分。</translation>
    </message>
    <message>
        <source>Scores:</source>
        <translation>分数：</translation>
    </message>
    <message>
        <source>e.g. 2, 1, 0 or 20, 10, 0</source>
        <translation>例如 2、1、0 或 20、10、0</translation>
    </message>
    <message>
        <source>Type raw scores separated by commas or spaces and press Enter: the lab shows their softmax (the explorer gets Q = [1] and one key per score, without scaling)</source>
        <translation>输入原始分数（用逗号、顿号或空格隔开）后按回车：本实验显示它们的 softmax（探索器里 Q = [1]，每个分数一个键向量，不缩放）</translation>
    </message>
    <message>
        <source>Add c to every score:</source>
        <translation>每个分数加上 c：</translation>
    </message>
    <message>
        <source>Add the same constant c to every scaled score: the weights do not move</source>
        <translation>给每个缩放后的分数加上同一个常数 c：权重纹丝不动</translation>
    </message>
    <message>
        <source>c = 0</source>
        <translation>c = 0</translation>
    </message>
    <message>
        <source>Back to the scores as they are</source>
        <translation>回到原来的分数</translation>
    </message>
    <message>
        <source>c = 1000</source>
        <translation>c = 1000</translation>
    </message>
    <message>
        <source>Scores around 1000: where a naive e^x overflows</source>
        <translation>分数在 1000 左右：朴素的 e^x 在这里会溢出</translation>
    </message>
    <message>
        <source>Softmax sees only differences: adding c multiplies every e&lt;sup&gt;x&lt;/sup&gt; and their sum by e&lt;sup&gt;c&lt;/sup&gt;, which cancels. So &lt;b&gt;ours&lt;/b&gt; subtracts the largest x first: the top term is e&lt;sup&gt;0&lt;/sup&gt; = 1 and nothing overflows. The &lt;b&gt;naive&lt;/b&gt; e&lt;sup&gt;x&lt;/sup&gt;/Σe&lt;sup&gt;x&lt;/sup&gt; does not: in float64, e&lt;sup&gt;x&lt;/sup&gt; is ∞ beyond x ≈ 709.8 and 0 below x ≈ −745.</source>
        <translation>softmax 只看差值：加上 c 会让每个 e&lt;sup&gt;x&lt;/sup&gt; 和它们的总和都乘以 e&lt;sup&gt;c&lt;/sup&gt;，两者正好抵消。所以&lt;b&gt;本程序&lt;/b&gt;先减去最大的 x：最大项是 e&lt;sup&gt;0&lt;/sup&gt; = 1，什么都不会溢出。&lt;b&gt;朴素&lt;/b&gt;的 e&lt;sup&gt;x&lt;/sup&gt;/Σe&lt;sup&gt;x&lt;/sup&gt; 没有这一步：在 float64 中，x 超过约 709.8 时 e&lt;sup&gt;x&lt;/sup&gt; 为 ∞，x 低于约 −745 时为 0。</translation>
    </message>
    <message>
        <source>… {0} more</source>
        <translation>… 另有 {0} 个</translation>
    </message>
    <message>
        <source>1/{0}</source>
        <translation>1/{0}</translation>
    </message>
    <message>
        <source>entropy H = {0} bits</source>
        <translation>熵 H = {0} 比特</translation>
    </message>
    <message>
        <source>gradient size ‖J‖ = {0}</source>
        <translation>梯度大小 ‖J‖ = {0}</translation>
    </message>
    <message>
        <source>factor &lt;b&gt;× {0}&lt;/b&gt; &amp;nbsp; largest weight &lt;b&gt;{1}&lt;/b&gt; (&lt;span style=&quot;color:{2}&quot;&gt;{3}&lt;/span&gt;)</source>
        <translation>缩⁠放⁠因⁠子&amp;nbsp;&lt;b&gt;×&amp;nbsp;{0}&lt;/b&gt; &amp;nbsp; 最⁠大⁠权⁠重&amp;nbsp;&lt;b&gt;{1}&lt;/b&gt;（&lt;span style=&quot;color:{2}&quot;&gt;{3}&lt;/span&gt;）</translation>
    </message>
    <message>
        <source>(off the axis: shown at its end)</source>
        <translation>（超出坐标轴：画在轴的末端）</translation>
    </message>
    <message>
        <source>c = {0}</source>
        <translation>c = {0}</translation>
    </message>
    <message>
        <source>key</source>
        <translation>键向量</translation>
    </message>
    <message>
        <source>x + c</source>
        <translation>x + c</translation>
    </message>
    <message>
        <source>ours</source>
        <translation>本程序</translation>
    </message>
    <message>
        <source>naive</source>
        <translation>朴素</translation>
    </message>
    <message>
        <source>model</source>
        <translation>模型</translation>
    </message>
    <message>
        <source>… and {0} more</source>
        <translation>… 另有 {0} 个</translation>
    </message>
    <message>
        <source>overflow → NaN</source>
        <translation>上溢 → NaN</translation>
    </message>
    <message>
        <source>underflow → NaN</source>
        <translation>下溢 → NaN</translation>
    </message>
    <message>
        <source>Naive: e&lt;sup&gt;{0}&lt;/sup&gt; = ∞, and ∞/∞ = NaN. Ours subtracts {0} first: the same weights as at c = 0.</source>
        <translation>朴素：e&lt;sup&gt;{0}&lt;/sup&gt; = ∞，而 ∞/∞ = NaN。本程序先减去 {0}：权重与 c = 0 时相同。</translation>
    </message>
    <message>
        <source>Naive: every e&lt;sup&gt;x&lt;/sup&gt; underflows to 0 (e&lt;sup&gt;{0}&lt;/sup&gt; = 0), and 0/0 = NaN. Ours subtracts the max first: the same weights as at c = 0.</source>
        <translation>朴素：每个 e&lt;sup&gt;x&lt;/sup&gt; 都下溢为 0（e&lt;sup&gt;{0}&lt;/sup&gt; = 0），而 0/0 = NaN。本程序先减去最大值：权重与 c = 0 时相同。</translation>
    </message>
    <message>
        <source>Naive: the sum of e^x is not finite.</source>
        <translation>朴素：e^x 之和不是有限值。</translation>
    </message>
    <message>
        <source>Here the naive e&lt;sup&gt;x&lt;/sup&gt; still works (every x + c lies between −745 and 709). Try c = 1000.</source>
        <translation>这里朴素的 e&lt;sup&gt;x&lt;/sup&gt; 仍然可用（每个 x + c 都在 −745 到 709 之间）。试试 c = 1000。</translation>
    </message>
    <message>
        <source>type one row of 1 to {0} scores, such as 2, 1, 0</source>
        <translation>请输入一行分数（1 到 {0} 个），例如 2、1、0</translation>
    </message>
    <message>
        <source>, </source>
        <comment>between the numbers of a list in a sentence</comment>
        <translation>、</translation>
    </message>
    <message>
        <source>Scores {0}</source>
        <translation>分数 {0}</translation>
    </message>
    <message>
        <source>Drag the line to set the scale factor (one undo step per drag)</source>
        <translation>拖动竖线以设置缩放因子（每次拖动算一步撤销）</translation>
    </message>
    <message>
        <source>At × {0}: largest weight {1}, entropy {2} bits, ‖J‖ {3}</source>
        <translation>× {0} 时：最大权重 {1}，熵 {2} 比特，‖J‖ {3}</translation>
    </message>
</context>
<context>
    <name>ScaleControls</name>
    <message>
        <source>zeros</source>
        <translation>零</translation>
    </message>
    <message>
        <source>random N(0,1)</source>
        <translation>随机 N(0,1)</translation>
    </message>
    <message>
        <source>seed </source>
        <translation>种子 </translation>
    </message>
    <message>
        <source>Auto 1/√d_k</source>
        <translation>自动 1/√d_k</translation>
    </message>
    <message>
        <source>Manual</source>
        <translation>手动</translation>
    </message>
    <message>
        <source>No scaling (× 1)</source>
        <translation>不缩放 (× 1)</translation>
    </message>
    <message>
        <source>fill</source>
        <translation>填充</translation>
    </message>
    <message>
        <source>Drag to change d_k (log scale; Page Up/Down ≈ doubles or halves it); one drag is one undo step.</source>
        <translation>拖动以改变 d_k（对数刻度；Page Up/Down 约为加倍或减半）；一次拖动算一步撤销。</translation>
    </message>
    <message>
        <source>Type d_k (1–4096) and press Enter</source>
        <translation>输入 d_k（1–4096）后按回车</translation>
    </message>
    <message>
        <source>What the new components of Q and every K hold when d_k grows</source>
        <translation>d_k 增大时，Q 和每个 K 新增的分量填入什么</translation>
    </message>
    <message>
        <source>Seed of the random N(0,1) components (same seed, same numbers)</source>
        <translation>随机 N(0,1) 分量的种子（种子相同，数也相同）</translation>
    </message>
    <message>
        <source>Drag to set a manual factor on the raw scores (log scale, 0 at the left end, 1 in the middle marks)</source>
        <translation>拖动以手动设置乘在原始分数上的缩放因子（对数刻度，最左端为 0，中间刻度处为 1）</translation>
    </message>
    <message>
        <source>Type a manual factor and press Enter</source>
        <translation>输入手动缩放因子后按回车</translation>
    </message>
    <message>
        <source>Use the raw scores Q·K (factor 1) to compare</source>
        <translation>直接用原始分数 Q·K（因子为 1）作对比</translation>
    </message>
    <message>
        <source>The standard factor 1/√d_k keeps the scores&apos; spread near 1</source>
        <translation>标准缩放因子 1/√d_k 让分数的离散程度保持在 1 左右</translation>
    </message>
    <message>
        <source>Keep the current factor and set it yourself</source>
        <translation>保留当前缩放因子，由你自己调</translation>
    </message>
    <message>
        <source>factor × {0} = 1/√{1}</source>
        <translation>缩放因子 × {0} = 1/√{1}</translation>
    </message>
    <message>
        <source>Automatic: follows d_k (√{0} = {1}).</source>
        <translation>自动：随 d_k 变化（√{0} = {1}）。</translation>
    </message>
    <message>
        <source>factor × {0}</source>
        <translation>缩放因子 × {0}</translation>
    </message>
    <message>
        <source>Manual; auto would be 1/√{0} = {1}.</source>
        <translation>手动；自动时应为 1/√{0} = {1}。</translation>
    </message>
    <message>
        <source>T = 1/factor = {0}</source>
        <translation>温度 T = 1/因子 = {0}</translation>
    </message>
    <message>
        <source>Every scaled score is 0: all weights equal.</source>
        <translation>缩放后的分数全为 0：所有权重相等。</translation>
    </message>
    <message>
        <source>New components are N(0, 1): q·k spreads like √d_k.</source>
        <translation>新分量服从 N(0, 1)：q·k 的离散程度随 √d_k 增长。</translation>
    </message>
    <message>
        <source>New components are 0: q·k stays, only the scaling shrinks it.</source>
        <translation>新分量为 0：q·k 不变，只被缩放变小。</translation>
    </message>
</context>
<context>
    <name>ScaleStrip</name>
    <message>
        <source>Auto 1/√d_k</source>
        <translation>自动 1/√d_k</translation>
    </message>
    <message>
        <source>The standard factor 1/√d_k; untick to keep the factor and set it with the slider</source>
        <translation>标准因子 1/√d_k；取消勾选则保留当前因子，用滑块调节</translation>
    </message>
    <message>
        <source>Drag to change d_k (log scale); one drag is one undo step</source>
        <translation>拖动以改变 d_k（对数刻度）；一次拖动为一个撤销步骤</translation>
    </message>
    <message>
        <source>Drag to set a manual factor on the raw scores (log scale, 0 at the left end)</source>
        <translation>拖动以设置作用于原始分数的手动因子（对数刻度，最左端为 0）</translation>
    </message>
</context>
<context>
    <name>ScoringView</name>
    <message>
        <source>&lt;b&gt;{0}&lt;/b&gt; weights: {1}</source>
        <translation>&lt;b&gt;{0}&lt;/b&gt; 的权重：{1}</translation>
    </message>
    <message>
        <source>Dot product</source>
        <translation>点积</translation>
    </message>
    <message>
        <source>Scaled dot product</source>
        <translation>缩放点积</translation>
    </message>
    <message>
        <source>Cosine similarity</source>
        <translation>余弦相似度</translation>
    </message>
    <message>
        <source>Additive (Bahdanau)</source>
        <translation>加性（Bahdanau）</translation>
    </message>
    <message>
        <source>q·k: d_k multiplications per key and no weights to learn (Luong et al., 2015); without a scale the scores grow with d_k and the softmax saturates.</source>
        <translation>q·k：每个键向量 d_k 次乘法，没有要学习的参数（Luong 等，2015）；不缩放时分数随 d_k 变大，softmax 会饱和。</translation>
    </message>
    <message>
        <source>q·k/√d_k: the same cost plus one multiplication, and the scores keep a variance near 1 at any d_k; the Transformer&apos;s choice, used by nearly every model since. These are the explorer&apos;s own weights.</source>
        <translation>q·k/√d_k：代价相同，只多一次乘法，且在任何 d_k 下分数的方差都接近 1；这是 Transformer 的选择，之后几乎所有模型都沿用。这就是“向量”页自己的权重。</translation>
    </message>
    <message>
        <source>q·k/(|q||k|): two norms more per pair, and the score stays within [−1, 1], so without a temperature the weights stay flat; used with a learned temperature, e.g. in Swin Transformer V2 and in retrieval.</source>
        <translation>q·k/(|q||k|)：每对多算两个范数，分数限制在 [−1, 1] 内，所以没有温度时权重很平；配合可学习的温度使用，例如 Swin Transformer V2 和检索模型。</translation>
    </message>
    <message>
        <source>vᵀ tanh(W_q q + W_k k): a small network per pair, about d_a·(2·d_k + 1) multiplications and three weight matrices to learn (here seeded, d_a = 8); Bahdanau et al. (2015), the first attention for translation.</source>
        <translation>vᵀ tanh(W_q q + W_k k)：每对一个小网络，约 d_a·(2·d_k + 1) 次乘法，要学习三个权重矩阵（这里用固定种子生成，d_a = 8）；Bahdanau 等（2015），最早用于翻译的注意力。</translation>
    </message>
    <message>
        <source>The same Q and K scored four ways; each function&apos;s softmax weights per key</source>
        <translation>同一组 Q 和 K 的四种打分方式；每种函数给每个键向量的 softmax 权重</translation>
    </message>
</context>
<context>
    <name>SelfAttentionLab</name>
    <message>
        <source>Opened “{0}”.</source>
        <translation>已打开“{0}”。</translation>
    </message>
    <message>
        <source>“{0}” as the query</source>
        <translation>以“{0}”为查询</translation>
    </message>
    <message>
        <source>Self-attention on “{0}”: the query is row {1} of Q = X·W_Q (the token “{2}”); the keys and values are the rows of K = X·W_K and V = X·W_V, one per token.</source>
        <translation>对“{0}”做自注意力：查询是 Q = X·W_Q 的第 {1} 行（词元“{2}”）；键向量和值向量是 K = X·W_K 和 V = X·W_V 的各行，每个词元一行。</translation>
    </message>
    <message>
        <source>“{0}” as the query (causal: keys up to it)</source>
        <translation>以“{0}”为查询（因果：键向量只到它为止）</translation>
    </message>
    <message>
        <source>The causal mask cannot be drawn with a single query, so only the keys and values up to “{0}” (the first {1}) are included: the tokens after it are left out.</source>
        <translation>单个查询画不出因果掩码，所以只纳入到“{0}”为止的键向量和值向量（前 {1} 个）：它之后的词元都不算在内。</translation>
    </message>
    <message>
        <source>“{0}” is now the query in the explorer: drag it on the canvas.</source>
        <translation>“{0}”现在是“向量”页中的查询：在画布上拖动它。</translation>
    </message>
    <message>
        <source>&lt;b&gt;{0}&lt;/b&gt; = X·W&lt;sub&gt;{0}&lt;/sub&gt;: &amp;nbsp;&lt;b&gt;{1}&lt;/b&gt;</source>
        <translation>&lt;b&gt;{0}&lt;/b&gt; = X·W&lt;sub&gt;{0}&lt;/sub&gt;：&amp;nbsp;&lt;b&gt;{1}&lt;/b&gt;</translation>
    </message>
    <message>
        <source>{0} = X·W_{0}: ({1}) · ({2}) = {3}</source>
        <translation>{0} = X·W_{0}：({1}) · ({2}) = {3}</translation>
    </message>
    <message>
        <source>&lt;b&gt;W&lt;sub&gt;Q&lt;/sub&gt;&lt;/b&gt;: &lt;b&gt;{0}&lt;/b&gt;, turns an embedding into a query</source>
        <translation>&lt;b&gt;W&lt;sub&gt;Q&lt;/sub&gt;&lt;/b&gt;：&lt;b&gt;{0}&lt;/b&gt;，把嵌入变成查询</translation>
    </message>
    <message>
        <source>&lt;b&gt;W&lt;sub&gt;K&lt;/sub&gt;&lt;/b&gt;: &lt;b&gt;{0}&lt;/b&gt;, turns an embedding into a key</source>
        <translation>&lt;b&gt;W&lt;sub&gt;K&lt;/sub&gt;&lt;/b&gt;：&lt;b&gt;{0}&lt;/b&gt;，把嵌入变成键向量</translation>
    </message>
    <message>
        <source>&lt;b&gt;W&lt;sub&gt;V&lt;/sub&gt;&lt;/b&gt;: &lt;b&gt;{0}&lt;/b&gt;, turns an embedding into a value</source>
        <translation>&lt;b&gt;W&lt;sub&gt;V&lt;/sub&gt;&lt;/b&gt;：&lt;b&gt;{0}&lt;/b&gt;，把嵌入变成值</translation>
    </message>
    <message>
        <source>&lt;b&gt;Scores Q·K&lt;sup&gt;T&lt;/sup&gt;&lt;/b&gt;&lt;br/&gt;N×d&lt;sub&gt;k&lt;/sub&gt; · d&lt;sub&gt;k&lt;/sub&gt;×N = N×N: &amp;nbsp;({0}) · ({1}) = &lt;b&gt;{2}&lt;/b&gt;</source>
        <translation>&lt;b&gt;分数 Q·K&lt;sup&gt;T&lt;/sup&gt;&lt;/b&gt;&lt;br/&gt;N×d&lt;sub&gt;k&lt;/sub&gt; · d&lt;sub&gt;k&lt;/sub&gt;×N = N×N：&amp;nbsp;({0}) · ({1}) = &lt;b&gt;{2}&lt;/b&gt;</translation>
    </message>
    <message>
        <source>Row = query token, column = key token. Causal mask: &lt;b&gt;{0}&lt;/b&gt; above the diagonal (a token may not look ahead).</source>
        <translation>行 = 查询词元，列 = 键词元。因果掩码：对角线以上为 &lt;b&gt;{0}&lt;/b&gt;（词元不能往后看）。</translation>
    </message>
    <message>
        <source>Row = query token, column = key token.</source>
        <translation>行 = 查询词元，列 = 键词元。</translation>
    </message>
    <message>
        <source>1/√{0} = {1}</source>
        <translation>1/√{0} = {1}</translation>
    </message>
    <message>
        <source>&lt;b&gt;X&lt;/b&gt;: one embedding row per token, &lt;b&gt;{0}&lt;/b&gt; (seeded N(0, 1) for new words; type over a number to edit it, Ctrl+V pastes a block)</source>
        <translation>&lt;b&gt;X&lt;/b&gt;：每个词元一行嵌入，&lt;b&gt;{0}&lt;/b&gt;（新词取带种子的 N(0, 1) 随机数；直接输入即可改写数字，Ctrl+V 粘贴一整块）</translation>
    </message>
    <message>
        <source>The padding tokens are left out of the keys: no query looks at them.</source>
        <translation>填充词元不在键向量之中：任何查询都不关注它们。</translation>
    </message>
    <message>
        <source>Padding: &lt;b&gt;{0}&lt;/b&gt; in the columns of the padding tokens.</source>
        <translation>填充：填充词元所在的列为 &lt;b&gt;{0}&lt;/b&gt;。</translation>
    </message>
    <message>
        <source>&lt;b&gt;Weights&lt;/b&gt;&lt;br/&gt;softmax of each row of Q·K&lt;sup&gt;T&lt;/sup&gt; × {0}</source>
        <translation>&lt;b&gt;权重&lt;/b&gt;&lt;br/&gt;对 Q·K&lt;sup&gt;T&lt;/sup&gt; × {0} 的每一行做 softmax</translation>
    </message>
    <message>
        <source> Masked cells get exactly 0.</source>
        <translation>被掩码的格子恰好为 0。</translation>
    </message>
    <message>
        <source>&lt;b&gt;Each row sums to 1.&lt;/b&gt;{0} Click a row: that token becomes the explorer&apos;s query.</source>
        <translation>&lt;b&gt;每行之和为 1。&lt;/b&gt;{0}点击某一行：该词元成为“向量”页中的查询。</translation>
    </message>
    <message>
        <source>Output row of “{0}”: row “{0}” of A times V, one weight per row of V</source>
        <translation>“{0}”的输出行：A 中“{0}”一行乘以 V，V 的每一行对应一个权重</translation>
    </message>
    <message>
        <source>Hover over a cell (i, j) to see q&lt;sub&gt;i&lt;/sub&gt;·k&lt;sub&gt;j&lt;/sub&gt; written out; click a row to make its token the explorer&apos;s query.</source>
        <translation>鼠标停在格子 (i, j) 上可看到 q&lt;sub&gt;i&lt;/sub&gt;·k&lt;sub&gt;j&lt;/sub&gt; 的展开式；点击某一行，它的词元就成为“向量”页中的查询。</translation>
    </message>
    <message>
        <source>… ({0} terms)</source>
        <translation>…（共 {0} 项）</translation>
    </message>
    <message>
        <source>masked: {0} before softmax, weight &lt;b&gt;0&lt;/b&gt;</source>
        <translation>已掩码：softmax 前为 {0}，权重 &lt;b&gt;0&lt;/b&gt;</translation>
    </message>
    <message>
        <source>weight &lt;b&gt;{0}&lt;/b&gt;</source>
        <translation>权重 &lt;b&gt;{0}&lt;/b&gt;</translation>
    </message>
    <message>
        <source>{0} · {1} = {2} = &lt;b&gt;{3}&lt;/b&gt; &amp;nbsp;→&amp;nbsp; {4}</source>
        <translation>{0} · {1} = {2} = &lt;b&gt;{3}&lt;/b&gt; &amp;nbsp;→&amp;nbsp; {4}</translation>
    </message>
    <message>
        <source>q·k of “{0}” (query) and “{1}” (key) = {2}; click to make “{0}” the explorer&apos;s query</source>
        <translation>“{0}”（查询）与“{1}”（键向量）的 q·k = {2}；点击让“{0}”成为“向量”页中的查询</translation>
    </message>
    <message>
        <source>Sentence</source>
        <translation>句子</translation>
    </message>
    <message>
        <source>Words separated by spaces, or Chinese without spaces</source>
        <translation>用空格分词，或直接输入不带空格的中文</translation>
    </message>
    <message>
        <source>Type a sentence and press Enter (1 to 512 tokens): words separated by spaces, or Chinese without spaces, which becomes one token per character as Chinese BERT splits it (我爱北京 → 我 爱 北 京)</source>
        <translation>输入一句话后按回车（1 到 512 个词元）：词与词用空格隔开；不带空格的中文按字切分，每个字一个词元，和中文 BERT 一样（我爱北京 → 我 爱 北 京）</translation>
    </message>
    <message>
        <source>The example sentence with its hand-made numbers</source>
        <translation>示例句子及其手工设定的数值</translation>
    </message>
    <message>
        <source>A longer sentence; new words get seeded random embeddings</source>
        <translation>更长的句子；新词使用带种子的随机嵌入</translation>
    </message>
    <message>
        <source>d_model</source>
        <translation>d_model</translation>
    </message>
    <message>
        <source>d_k</source>
        <translation>d_k</translation>
    </message>
    <message>
        <source>d_v</source>
        <translation>d_v</translation>
    </message>
    <message>
        <source>seed</source>
        <translation>种子</translation>
    </message>
    <message>
        <source>Width of each embedding (rows of W_Q, W_K, W_V)</source>
        <translation>每个嵌入的宽度（W_Q、W_K、W_V 的行数）</translation>
    </message>
    <message>
        <source>Width of each query and key (columns of W_Q and W_K)</source>
        <translation>每个查询和键向量的宽度（W_Q 和 W_K 的列数）</translation>
    </message>
    <message>
        <source>Width of each value (columns of W_V)</source>
        <translation>每个值的宽度（W_V 的列数）</translation>
    </message>
    <message>
        <source>Changing the seed draws new random X and W</source>
        <translation>换一个种子，就重新随机抽取 X 和 W</translation>
    </message>
    <message>
        <source>Random X, W</source>
        <translation>随机 X、W</translation>
    </message>
    <message>
        <source>Seeded N(0, 1) embeddings and N(0, 1/d_model) weights, like a freshly initialised layer</source>
        <translation>带种子的 N(0, 1) 嵌入和 N(0, 1/d_model) 权重，就像一个刚初始化的层</translation>
    </message>
    <message>
        <source>In a real model…</source>
        <translation>在真实模型中…</translation>
    </message>
    <message>
        <source>Run this sentence through a real model on the Real transformer page: its own tokenizer splits it, and each head&apos;s attention is shown. For Chinese, a model that reads it from this computer&apos;s Hugging Face cache (bert-base-chinese or Qwen2.5-0.5B; File ▸ Get a model… downloads them)</source>
        <translation>在“真实模型”页用真实模型运行这个句子：由模型自己的分词器切分，并显示每个头的注意力。中文句子会用本机 Hugging Face 缓存中能读中文的模型（bert-base-chinese 或 Qwen2.5-0.5B；可用“文件 ▸ 获取模型…”下载）</translation>
    </message>
    <message>
        <source>W = I</source>
        <translation>W = I</translation>
    </message>
    <message>
        <source>W_Q = W_K = W_V = identity, so Q = K = V = X (needs d_k = d_v = d_model)</source>
        <translation>W_Q = W_K = W_V = 单位矩阵，于是 Q = K = V = X（要求 d_k = d_v = d_model）</translation>
    </message>
    <message>
        <source>Q, K, V</source>
        <translation>Q、K、V</translation>
    </message>
    <message>
        <source>Causal mask</source>
        <translation>因果掩码</translation>
    </message>
    <message>
        <source>−∞ above the diagonal before softmax: no token looks ahead</source>
        <translation>softmax 之前把对角线以上设为 −∞：任何词元都看不到后面</translation>
    </message>
    <message>
        <source>Scale by 1/√d_k</source>
        <translation>按 1/√d_k 缩放</translation>
    </message>
    <message>
        <source>Off: softmax of the raw scores (factor 1)</source>
        <translation>关闭时：直接对原始分数做 softmax（因子为 1）</translation>
    </message>
</context>
<context>
    <name>StepBanner</name>
    <message>
        <source>Dot products</source>
        <translation>点积</translation>
    </message>
    <message>
        <source>Scaling</source>
        <translation>缩放</translation>
    </message>
    <message>
        <source>Softmax</source>
        <translation>Softmax</translation>
    </message>
    <message>
        <source>Weighted sum</source>
        <translation>加权求和</translation>
    </message>
    <message>
        <source>Step {0} of {1} — {2} · → next, ← back, Esc leaves step-through</source>
        <translation>第 {0} 步，共 {1} 步 — {2} · → 下一步，← 上一步，Esc 退出逐步演示</translation>
    </message>
</context>
<context>
    <name>StepsView</name>
    <message>
        <source>… and {0} more keys: the rows show the {1} largest weights (and the selected key); every sum is over all {2} keys.</source>
        <translation>… 另有 {0} 个键向量：表中只列出权重最大的 {1} 个（以及选中的键向量）；所有求和都覆盖全部 {2} 个键向量。</translation>
    </message>
    <message>
        <source>{0} = {1}, d&lt;sub&gt;k&lt;/sub&gt; = {2}, d&lt;sub&gt;v&lt;/sub&gt; = {3}, {4} keys</source>
        <translation>{0} = {1}，d&lt;sub&gt;k&lt;/sub&gt; = {2}，d&lt;sub&gt;v&lt;/sub&gt; = {3}，{4} 个键向量</translation>
    </message>
    <message>
        <source>Raw scores</source>
        <translation>原始分数</translation>
    </message>
    <message>
        <source>d&lt;sub&gt;k&lt;/sub&gt; = {0}: each score is the sum of {0} products q&lt;sub&gt;j&lt;/sub&gt;·k&lt;sub&gt;j&lt;/sub&gt;.</source>
        <translation>d&lt;sub&gt;k&lt;/sub&gt; = {0}：每个分数都是 {0} 个乘积 q&lt;sub&gt;j&lt;/sub&gt;·k&lt;sub&gt;j&lt;/sub&gt; 之和。</translation>
    </message>
    <message>
        <source>automatic: the raw scores are divided by √d&lt;sub&gt;k&lt;/sub&gt;</source>
        <translation>自动：原始分数除以 √d&lt;sub&gt;k&lt;/sub&gt;</translation>
    </message>
    <message>
        <source>manual factor f = {0} (automatic would be ÷ √{1} = ÷ {2})</source>
        <translation>手动缩放因子 f = {0}（自动时为 ÷ √{1} = ÷ {2}）</translation>
    </message>
    <message>
        <source>Scaling</source>
        <translation>缩放</translation>
    </message>
    <message>
        <source>Softmax</source>
        <translation>Softmax</translation>
    </message>
    <message>
        <source>Stable form: e&lt;sup&gt;x&lt;/sup&gt; itself would overflow or underflow a float64 here (beyond about e&lt;sup&gt;±709&lt;/sup&gt;), so every exponent is first lowered by the largest score m = {0}. The weights do not change: the factor e&lt;sup&gt;−m&lt;/sup&gt; cancels between each term and Σ.</source>
        <translation>稳定形式：这里直接算 e&lt;sup&gt;x&lt;/sup&gt; 会让 float64 上溢或下溢（超出约 e&lt;sup&gt;±709&lt;/sup&gt;），所以每个指数先减去最大分数 m = {0}。权重不变：因子 e&lt;sup&gt;−m&lt;/sup&gt; 在每一项和 Σ 之间相互抵消。</translation>
    </message>
    <message>
        <source>all {0} terms: {1}</source>
        <translation>全部 {0} 项：{1}</translation>
    </message>
    <message>
        <source>Weighted sum of the values</source>
        <translation>对值加权求和</translation>
    </message>
    <message>
        <source>output</source>
        <translation>输出</translation>
    </message>
    <message>
        <source>Why Q·K = |Q||K| cos θ</source>
        <translation>为什么 Q·K = |Q||K| cos θ</translation>
    </message>
    <message>
        <source>For Q and the selected key K = {0}. Q, K and Q − K form a triangle; θ is its angle between Q and K.</source>
        <translation>取 Q 和选中的键向量 K = {0}。Q、K 和 Q − K 围成一个三角形，θ 是其中 Q 与 K 的夹角。</translation>
    </message>
    <message>
        <source>Law of cosines</source>
        <translation>余弦定理</translation>
    </message>
    <message>
        <source>Expand the left side</source>
        <translation>展开左边</translation>
    </message>
    <message>
        <source>Both equal |Q − K|²: |Q|² + |K|² cancels</source>
        <translation>两式都等于 |Q − K|²：消去 |Q|² + |K|²</translation>
    </message>
    <message>
        <source>Divide by −2</source>
        <translation>两边除以 −2</translation>
    </message>
    <message>
        <source>Q and K are both the zero vector</source>
        <translation>Q 和 K 都是零向量</translation>
    </message>
    <message>
        <source>Q is the zero vector</source>
        <translation>Q 是零向量</translation>
    </message>
    <message>
        <source>K is the zero vector</source>
        <translation>K 是零向量</translation>
    </message>
    <message>
        <source>&lt;b&gt;θ undefined&lt;/b&gt;: {0}, so it has no direction and there is no angle. Q·K = {1} and |Q||K| = 0: the identity holds for any θ.</source>
        <translation>&lt;b&gt;θ 无定义&lt;/b&gt;：{0}，没有方向，也就没有夹角。Q·K = {1} 且 |Q||K| = 0：等式对任何 θ 都成立。</translation>
    </message>
    <message>
        <source>{0}: click to select this key; hover a number for more decimals.</source>
        <translation>{0}：点击选中这个键向量；鼠标停在数字上可看更多小数位。</translation>
    </message>
</context>
<context>
    <name>TrainingLab</name>
    <message>
        <source>Press Start: both runs learn side by side; change d_k, steps, learning rate or seed and they start again.</source>
        <translation>按“开始”：两次训练并排进行；改动 d_k、步数、学习率或种子，它们就从头再来。</translation>
    </message>
    <message>
        <source>Pause</source>
        <translation>暂停</translation>
    </message>
    <message>
        <source>Start</source>
        <translation>开始</translation>
    </message>
    <message>
        <source>Sweep over d_k: {0} of {1}</source>
        <translation>扫描 d_k：{0} / {1}</translation>
    </message>
    <message>
        <source>Step {0} of {1}</source>
        <translation>第 {0} 步，共 {1} 步</translation>
    </message>
    <message>
        <source>The run stopped: {0}</source>
        <translation>训练中断：{0}</translation>
    </message>
    <message>
        <source>Press &lt;b&gt;Start&lt;/b&gt; (or &lt;b&gt;One step&lt;/b&gt;): the verdict follows the numbers measured.</source>
        <translation>按&lt;b&gt;开始&lt;/b&gt;（或&lt;b&gt;单步&lt;/b&gt;）：结论跟着测得的数字走。</translation>
    </message>
    <message>
        <source> (so far)</source>
        <translation>（到目前为止）</translation>
    </message>
    <message>
        <source>&lt;b&gt;Scaled learned faster&lt;/b&gt;{4}: its loss fell below {0} at step {1}, the unscaled run&apos;s at step {2}, {3} steps later.</source>
        <translation>&lt;b&gt;缩放的学得更快&lt;/b&gt;{4}：它的损失在第 {1} 步降到 {0} 以下，不缩放的在第 {2} 步，晚了 {3} 步。</translation>
    </message>
    <message>
        <source>&lt;b&gt;Scaled learned faster&lt;/b&gt;{3}: its loss fell below {0} at step {1}; the unscaled run&apos;s did not in {2} steps.</source>
        <translation>&lt;b&gt;缩放的学得更快&lt;/b&gt;{3}：它的损失在第 {1} 步降到 {0} 以下；不缩放的在 {2} 步内都没有。</translation>
    </message>
    <message>
        <source>&lt;b&gt;Here the unscaled run learned faster&lt;/b&gt;{3} (below {0} at step {1}; scaled: {2}): this setting does not support the article&apos;s claim.</source>
        <translation>&lt;b&gt;这里不缩放的学得更快&lt;/b&gt;{3}（第 {1} 步降到 {0} 以下；缩放的：{2}）：这个设置不支持文章的说法。</translation>
    </message>
    <message>
        <source>not</source>
        <translation>没有</translation>
    </message>
    <message>
        <source>&lt;b&gt;No clear difference&lt;/b&gt;{3}: both runs fell below {0} at about the same step (scaled {1}, unscaled {2}); this setting does not show the article&apos;s claim.</source>
        <translation>&lt;b&gt;没有明显差别&lt;/b&gt;{3}：两次训练在差不多同一步降到 {0} 以下（缩放的第 {1} 步，不缩放的第 {2} 步）；这个设置显示不出文章的说法。</translation>
    </message>
    <message>
        <source>&lt;b&gt;Neither run&lt;/b&gt; got below {0} in {1} steps{2}: no difference in learning is shown yet (more steps or a larger learning rate may show one).</source>
        <translation>&lt;b&gt;两次训练都没有&lt;/b&gt;在 {1} 步内降到 {0} 以下{2}：还看不出学习上的差别（更多步数或更大的学习率也许能看出来）。</translation>
    </message>
    <message>
        <source>Loss now: scaled {0}, unscaled {1}. At step 1 the unscaled softmax had {2} bits of entropy (scaled {3}, even spread {4}) and a Jacobian norm of {5} (scaled {6}).</source>
        <translation>现在的损失：缩放的 {0}，不缩放的 {1}。第 1 步时不缩放的 softmax 熵为 {2} 比特（缩放的 {3}，均匀分布 {4}），雅可比范数为 {5}（缩放的 {6}）。</translation>
    </message>
    <message>
        <source>Its gradient at W_Q was larger, not smaller ({0} against {1}): the factor 1/√d_k shrinks the scaled run&apos;s too; what vanishes is the softmax&apos;s own slope.</source>
        <translation>它到达 W_Q 的梯度反而更大（{0} 对 {1}）：因子 1/√d_k 也缩小了缩放那次的梯度；消失的是 softmax 自身的斜率。</translation>
    </message>
    <message>
        <source>Its gradient at W_Q was {0} against {1} scaled.</source>
        <translation>它到达 W_Q 的梯度为 {0}，缩放的为 {1}。</translation>
    </message>
    <message>
        <source>{0} {1}</source>
        <comment>two sentences, one after the other</comment>
        <translation>{0}{1}</translation>
    </message>
    <message>
        <source>Sweep over d_k under way…</source>
        <translation>正在扫描 d_k…</translation>
    </message>
    <message>
        <source>Press &lt;b&gt;Start&lt;/b&gt; to run the sweep over d_k (16 … 512) that was paused.</source>
        <translation>按&lt;b&gt;开始&lt;/b&gt;，继续暂停了的 d_k 扫描（16 … 512）。</translation>
    </message>
    <message>
        <source>The sweep over d_k (16 … 512) runs when both runs reach their last step.</source>
        <translation>两次训练都走完最后一步后，再扫描 d_k（16 … 512）。</translation>
    </message>
    <message>
        <source>at the largest d_k the scaled run is not clearly faster: the sweep does not support the claim at these settings.</source>
        <translation>在最大的 d_k 下缩放的并不明显更快：在这些设置下，扫描不支持这个说法。</translation>
    </message>
    <message>
        <source>the scaled run is clearly faster at every d_k, from {0} on.</source>
        <translation>从 {0} 起，每个 d_k 下缩放的都明显更快。</translation>
    </message>
    <message>
        <source>the difference appears from d_k = {0} on.</source>
        <translation>差别从 d_k = {0} 起出现。</translation>
    </message>
    <message>
        <source>Sweep, step below the threshold (scaled/unscaled, — never): {0}; {1}</source>
        <translation>扫描，降到阈值以下的步数（缩放/不缩放，— 表示没有）：{0}；{1}</translation>
    </message>
    <message>
        <source>scaled 1/√d_k</source>
        <translation>缩放 1/√d_k</translation>
    </message>
    <message>
        <source>unscaled</source>
        <translation>不缩放</translation>
    </message>
    <message>
        <source>One tiny attention model learns twice, from the same seed, data and weights: a query must find its key among 8 and return its value. &lt;b&gt;Scaled&lt;/b&gt; divides q·k by √d&lt;sub&gt;k&lt;/sub&gt;, &lt;b&gt;unscaled&lt;/b&gt; does not. Does the unscaled softmax saturate and learn slower, as the article says?</source>
        <translation>同一个小注意力模型从相同的种子、数据和权重出发学两次：查询要在 8 个键向量中找到自己的那个，并返回它的值。&lt;b&gt;缩放&lt;/b&gt;把 q·k 除以 √d&lt;sub&gt;k&lt;/sub&gt;，&lt;b&gt;不缩放&lt;/b&gt;则不除。不缩放的 softmax 会不会像文章说的那样饱和、学得更慢？</translation>
    </message>
    <message>
        <source>d_k</source>
        <translation>d_k</translation>
    </message>
    <message>
        <source>steps</source>
        <translation>步数</translation>
    </message>
    <message>
        <source>learning rate</source>
        <translation>学习率</translation>
    </message>
    <message>
        <source>seed</source>
        <translation>种子</translation>
    </message>
    <message>
        <source>Width of q and k, {0} to {1}</source>
        <translation>q 和 k 的维度，{0} 到 {1}</translation>
    </message>
    <message>
        <source>Adam&apos;s learning rate, the same for both runs (Learning rate, Adam: Help ▸ Guide ▸ Glossary, F1)</source>
        <translation>Adam 的学习率，两次训练相同（学习率、Adam：帮助 ▸ 指南 ▸ 术语表，F1）</translation>
    </message>
    <message>
        <source>½‖o − v‖² against the matching key&apos;s value, averaged over the training set (Loss: Help ▸ Guide ▸ Glossary, F1)</source>
        <translation>输出与匹配键向量的值之间的 ½‖o − v‖²，对训练集取平均（损失：帮助 ▸ 指南 ▸ 术语表，F1）</translation>
    </message>
    <message>
        <source>&lt;b&gt;Gradient norm&lt;/b&gt; at W&lt;sub&gt;Q&lt;/sub&gt;</source>
        <translation>&lt;b&gt;梯度范数&lt;/b&gt;：W&lt;sub&gt;Q&lt;/sub&gt;</translation>
    </message>
    <message>
        <source>&lt;b&gt;Gradient norm&lt;/b&gt; at W&lt;sub&gt;K&lt;/sub&gt;</source>
        <translation>&lt;b&gt;梯度范数&lt;/b&gt;：W&lt;sub&gt;K&lt;/sub&gt;</translation>
    </message>
    <message>
        <source>Another training set, probe and starting weights</source>
        <translation>换一组训练数据、探针查询和初始权重</translation>
    </message>
    <message>
        <source>One step</source>
        <translation>单步</translation>
    </message>
    <message>
        <source>Reset</source>
        <translation>重置</translation>
    </message>
    <message>
        <source>&lt;b&gt;Loss&lt;/b&gt; (dashed: the threshold)</source>
        <translation>&lt;b&gt;损失&lt;/b&gt;（虚线：阈值）</translation>
    </message>
    <message>
        <source>&lt;b&gt;Attention entropy&lt;/b&gt; (bits)</source>
        <translation>&lt;b&gt;注意力熵&lt;/b&gt;（比特）</translation>
    </message>
    <message>
        <source>&lt;b&gt;Softmax Jacobian norm&lt;/b&gt;</source>
        <translation>&lt;b&gt;softmax 雅可比范数&lt;/b&gt;</translation>
    </message>
    <message>
        <source>&lt;b&gt;Probe query, scaled&lt;/b&gt;: weight on each key</source>
        <translation>&lt;b&gt;探针查询，缩放&lt;/b&gt;：每个键向量的权重</translation>
    </message>
    <message>
        <source>&lt;b&gt;Probe query, unscaled&lt;/b&gt;: weight on each key</source>
        <translation>&lt;b&gt;探针查询，不缩放&lt;/b&gt;：每个键向量的权重</translation>
    </message>
    <message>
        <source>step</source>
        <translation>步</translation>
    </message>
</context>
<context>
    <name>TransformerLab</name>
    <message>
        <source>Open a model folder</source>
        <translation>打开模型文件夹</translation>
    </message>
    <message>
        <source>Starting…</source>
        <translation>正在开始…</translation>
    </message>
    <message>
        <source>{0}: not enough memory for this model</source>
        <translation>{0}：内存不足，装不下这个模型</translation>
    </message>
    <message>
        <source>Open a model first (“Open model…”).</source>
        <translation>请先打开一个模型（“打开模型…”）。</translation>
    </message>
    <message>
        <source>Not enough memory for this sentence</source>
        <translation>内存不足，无法处理这个句子</translation>
    </message>
    <message>
        <source>No model that reads Chinese is on this computer. File ▸ Get a model… offers bert-base-chinese (412 MB) and Qwen2.5-0.5B (995 MB); then one click shows “{0}” in it.</source>
        <translation>这台电脑上没有能读中文的模型。“文件 ▸ 获取模型…”提供 bert-base-chinese（412 MB）和 Qwen2.5-0.5B（995 MB）；下载后单击一次即可在其中显示“{0}”。</translation>
    </message>
    <message>
        <source>No model is on this computer yet: File ▸ Get a model… downloads one.</source>
        <translation>这台电脑上还没有模型：用“文件 ▸ 获取模型…”下载一个。</translation>
    </message>
    <message>
        <source>the likeliest</source>
        <translation>概率最高的</translation>
    </message>
    <message>
        <source>drawn among the {0} likeliest</source>
        <translation>从概率最高的 {0} 个中抽取</translation>
    </message>
    <message>
        <source>Appended “{0}” (token {1}, {2}, p = {3}). Its query row over all {4} cached keys, in the layer and head chosen above:</source>
        <translation>已追加“{0}”（词元 {1}，{2}，p = {3}）。下面是它的查询行对全部 {4} 个缓存键向量的注意力（层和头为上方所选）：</translation>
    </message>
    <message>
        <source>“{0}” as the query (layer {1}, head {2}, after RoPE)</source>
        <translation>“{0}”作为查询（第 {1} 层，第 {2} 个头，RoPE 之后）</translation>
    </message>
    <message>
        <source>Real numbers from {0}, layer {1}, head {2} (K/V head {3}), for “{4}”, after RoPE. Q is q{5} of “{6}”, rotated to its position m = {7}; the keys are k{8}…k{5} of the {9} tokens up to it, each rotated to its own position n, and the values their v: the numbers the model scores, so q·k depends on the positions only through m − n. d_k = {10}; the model scales the scores by 1/√{10}, as the explorer does.</source>
        <translation>来自 {0} 第 {1} 层第 {2} 个头（K/V 头 {3}）的真实数值，句子“{4}”，RoPE 之后。Q 是“{6}”的 q{5}，已旋转到它的位置 m = {7}；键向量是到它为止 {9} 个词元的 k{8}…k{5}，各自旋转到自己的位置 n，值向量是它们的 v：正是模型打分用的数，所以 q·k 只通过 m − n 依赖位置。d_k = {10}；模型把分数乘以 1/√{10}，与探索器相同。</translation>
    </message>
    <message>
        <source>Real numbers from {0}, layer {1}, head {2}, for “{3}”. Q is the query vector of “{4}”; the keys and values are the k and v of the {5} tokens up to it, the ones held in the KV cache (GPT-2 never looks ahead), d_k = {6}. GPT-2 scales the scores by 1/√{6}, as the explorer does.</source>
        <translation>来自 {0} 第 {1} 层第 {2} 个头、关于“{3}”的真实数值。Q 是“{4}”的查询向量；键向量和值向量是截至它的 {5} 个词元的 k 和 v，即 KV 缓存中保存的那些（GPT-2 从不看后面的词元），d_k = {6}。GPT-2 把分数乘以 1/√{6}，与探索器相同。</translation>
    </message>
    <message>
        <source>{0}, layer {1}, head {2}: “{3}” and “{4}”</source>
        <translation>{0}，第 {1} 层，第 {2} 个头：“{3}”和“{4}”</translation>
    </message>
    <message>
        <source>Real q and k from {0}, layer {1}, head {2} (K/V head {3}), before RoPE: q of “{4}” at m = {5}, k of “{6}” at n = {7}. At these positions R(m)q · R(n)k = {8}, the model&apos;s own score (÷ √{9} = {10}).</source>
        <translation>来自 {0} 第 {1} 层第 {2} 个头（K/V 头 {3}）的真实 q 和 k，RoPE 之前：“{4}”的 q 在 m = {5}，“{6}”的 k 在 n = {7}。在这两个位置 R(m)q · R(n)k = {8}，正是模型自己的分数（÷ √{9} = {10}）。</translation>
    </message>
    <message>
        <source>In the positions lab now: {0}</source>
        <translation>已送到“位置与 q·k”页：{0}</translation>
    </message>
    <message>
        <source>“{0}” as the query (layer {1}, head {2})</source>
        <translation>以“{0}”为查询（层 {1}，头 {2}）</translation>
    </message>
    <message>
        <source>Real numbers from {0}, layer {1}, head {2}, for the sentence “{3}”. Q is the query vector of “{4}”; the keys and values are the k and v of every token ({5} of them) in this head, d_k = {6}. BERT scales the scores by 1/√{6}, as the explorer does.</source>
        <translation>来自 {0} 的真实数值（层 {1}，头 {2}），句子为“{3}”。Q 是“{4}”的查询向量；键向量和值向量是这个头中每个词元（共 {5} 个）的 k 和 v，d_k = {6}。BERT 也用 1/√{6} 缩放分数，与本程序相同。</translation>
    </message>
    <message>
        <source>Open a model and type a sentence first.</source>
        <translation>请先打开模型并输入一个句子。</translation>
    </message>
    <message>
        <source>In the explorer now: {0}</source>
        <translation>已送到“向量”页：{0}</translation>
    </message>
    <message>
        <source>k of each token: what it offers to be matched ({0} numbers)</source>
        <translation>每个词元的 k：它拿出来供匹配的内容（{0} 个数）</translation>
    </message>
    <message>
        <source>v of each token: what it passes on when attended to ({0} numbers)</source>
        <translation>每个词元的 v：它被关注时传递出去的内容（{0} 个数）</translation>
    </message>
    <message>
        <source>q of each token: what it looks for ({0} numbers)</source>
        <translation>每个词元的 q：它要寻找的内容（{0} 个数）</translation>
    </message>
    <message>
        <source>&lt;b&gt;{0}&lt;/b&gt;: {1} layers × {2} heads sharing {3} K/V heads, d_k = {4}</source>
        <translation>&lt;b&gt;{0}&lt;/b&gt;：{1} 层 × {2} 个头，共用 {3} 个 K/V 头，d_k = {4}</translation>
    </message>
    <message>
        <source>&lt;b&gt;{0}&lt;/b&gt;: {1} layers × {2} heads, d_k = {3}</source>
        <translation>&lt;b&gt;{0}&lt;/b&gt;：{1} 层 × {2} 个头，d_k = {3}</translation>
    </message>
    <message>
        <source>{0} tokens</source>
        <translation>{0} 个词元</translation>
    </message>
    <message>
        <source>in the explorer: {0}</source>
        <translation>已送到“向量”页：{0}</translation>
    </message>
    <message>
        <source>“{0}” → “{1}”: weight {2}, scaled score q·k/√{3} = {4} — click to choose this pair: “{0}” the query, “{1}” the key</source>
        <translation>“{0}” → “{1}”：权重 {2}，缩放后的分数 q·k/√{3} = {4} — 点击选中这一对：“{0}”作查询，“{1}”作键向量</translation>
    </message>
    <message>
        <source>Layer {0}, head {1}: click to show it large</source>
        <translation>层 {0}，头 {1}：点击放大显示</translation>
    </message>
    <message>
        <source>Real transformer mode needs the optional packages safetensors and tokenizers (missing here: {0}). Install them with: {1}</source>
        <translation>真实模型模式需要可选软件包 safetensors 和 tokenizers（这里缺少：{0}）。安装命令：{1}</translation>
    </message>
    <message>
        <source>(optional packages missing)</source>
        <translation>（缺少可选软件包）</translation>
    </message>
    <message>
        <source>Models on this computer ({0})…</source>
        <translation>本机上的模型（{0}）…</translation>
    </message>
    <message>
        <source>No models in the Hugging Face cache</source>
        <translation>Hugging Face 缓存中没有模型</translation>
    </message>
    <message>
        <source>Explore “{0}” as Q</source>
        <translation>把“{0}”作为 Q 探索</translation>
    </message>
    <message>
        <source>Explore as Q</source>
        <translation>作为 Q 探索</translation>
    </message>
    <message>
        <source>q{0}·k{1} in Positions</source>
        <translation>q{0}·k{1} 送到位置页</translation>
    </message>
    <message>
        <source>Open this head&apos;s q of “{0}” (m = {1}) and k of “{2}” (n = {3}), before RoPE, in the positions lab: move m and n and q·k changes with m − n only. Click a cell to choose another pair.</source>
        <translation>把这个头中“{0}”的 q（m = {1}）和“{2}”的 k（n = {3}）以 RoPE 之前的形式送到“位置与 q·k”页：移动 m 和 n，q·k 只随 m − n 变化。单击一个格子可选另一对。</translation>
    </message>
    <message>
        <source>No model open</source>
        <translation>尚未打开模型</translation>
    </message>
    <message>
        <source>This page runs a real BERT-family model on your sentence and shows the attention softmax(q·k/√d_k) of each of its heads. Any token can then be explored as the query on the canvas.</source>
        <translation>本页用真实的 BERT 系列模型处理你输入的句子，显示它每个注意力头的 softmax(q·k/√d_k)。之后可以把任一词元作为查询放到画布上细看。</translation>
    </message>
    <message>
        <source>First install the optional packages it needs (missing here: {0}):</source>
        <translation>请先安装所需的可选软件包（这里缺少：{0}）：</translation>
    </message>
    <message>
        <source>Then open a local Hugging Face model folder with config.json, model.safetensors and tokenizer.json. Models already in the Hugging Face cache on this computer are listed in the box above; nothing is downloaded.</source>
        <translation>然后打开一个本地 Hugging Face 模型文件夹，其中含有 config.json、model.safetensors 和 tokenizer.json。本机 Hugging Face 缓存中已有的模型列在上方的框中；不会下载任何东西。</translation>
    </message>
    <message>
        <source>Open a local Hugging Face model folder with config.json, model.safetensors and tokenizer.json. Models already in the Hugging Face cache on this computer are listed in the box above; nothing is downloaded.</source>
        <translation>打开一个本地 Hugging Face 模型文件夹，其中含有 config.json、model.safetensors 和 tokenizer.json。本机 Hugging Face 缓存中已有的模型列在上方的框中；不会下载任何东西。</translation>
    </message>
    <message>
        <source>Open model folder…</source>
        <translation>打开模型文件夹…</translation>
    </message>
    <message>
        <source>The same as File ▸ Open model…</source>
        <translation>与“文件 ▸ 打开模型…”相同</translation>
    </message>
    <message>
        <source>Open model…</source>
        <translation>打开模型…</translation>
    </message>
    <message>
        <source>Open a local folder with config.json, model.safetensors and tokenizer.json of a BERT-family model or a GPT-2</source>
        <translation>打开包含 config.json、model.safetensors 和 tokenizer.json 的本地 BERT 系列模型或 GPT-2 文件夹</translation>
    </message>
    <message>
        <source>BERT-family and GPT-2 models already in the Hugging Face cache on this computer</source>
        <translation>本机 Hugging Face 缓存中已有的 BERT 系列和 GPT-2 模型</translation>
    </message>
    <message>
        <source>Type a sentence (English or 中文) and press Enter</source>
        <translation>输入一个句子（英文或中文）后按回车</translation>
    </message>
    <message>
        <source>Show</source>
        <translation>显示</translation>
    </message>
    <message>
        <source>Run the model on the sentence</source>
        <translation>在这个句子上运行模型</translation>
    </message>
    <message>
        <source>Layer</source>
        <translation>层</translation>
    </message>
    <message>
        <source>Head</source>
        <translation>头</translation>
    </message>
    <message>
        <source>Layer, counted from 0</source>
        <translation>层号，从 0 开始数</translation>
    </message>
    <message>
        <source>Attention head, counted from 0</source>
        <translation>注意力头编号，从 0 开始数</translation>
    </message>
    <message>
        <source>Query</source>
        <translation>查询</translation>
    </message>
    <message>
        <source>The token whose q asks; click a row of the matrix to choose it</source>
        <translation>发出 q 的词元；点击矩阵中的某一行来选择</translation>
    </message>
    <message>
        <source>Open this head&apos;s q of the chosen token, with every token&apos;s k and v, in the explorer: the canvas, steps and weights then show the model&apos;s real numbers</source>
        <translation>把这个头中所选词元的 q，连同每个词元的 k 和 v，送到“向量”页：画布、步骤和权重随即显示模型的真实数值</translation>
    </message>
    <message>
        <source>Attention</source>
        <translation>注意力</translation>
    </message>
    <message>
        <source>softmax(q·k/√d_k) for every query (row) and key (column)</source>
        <translation>每个查询（行）对每个键向量（列）的 softmax(q·k/√d_k)</translation>
    </message>
    <message>
        <source>Scaled scores</source>
        <translation>缩放后的分数</translation>
    </message>
    <message>
        <source>q·k/√d_k before the softmax</source>
        <translation>softmax 之前的 q·k/√d_k</translation>
    </message>
    <message>
        <source>All heads</source>
        <translation>所有头</translation>
    </message>
    <message>
        <source>Every head of every layer; click one to show it large</source>
        <translation>每一层的每个头；点击其中一个放大显示</translation>
    </message>
    <message>
        <source>q, k, v</source>
        <translation>q、k、v</translation>
    </message>
    <message>
        <source>This head&apos;s query, key and value vectors of every token</source>
        <translation>这个头中每个词元的查询、键向量和值向量</translation>
    </message>
    <message>
        <source>Next token</source>
        <translation>下一个词元</translation>
    </message>
    <message>
        <source>GPT-2 generates one token at a time from its KV cache</source>
        <translation>GPT-2 借助 KV 缓存一次生成一个词元</translation>
    </message>
    <message>
        <source>query</source>
        <translation>查询</translation>
    </message>
    <message>
        <source>key</source>
        <translation>键向量</translation>
    </message>
    <message>
        <source>layer</source>
        <translation>层</translation>
    </message>
    <message>
        <source>head</source>
        <translation>头</translation>
    </message>
    <message>
        <source>Something went wrong: {0}</source>
        <translation>出了问题：{0}</translation>
    </message>
    <message>
        <source>Reading config.json…</source>
        <translation>正在读取 config.json…</translation>
    </message>
    <message>
        <source>Reading the weights…</source>
        <translation>正在读取权重…</translation>
    </message>
    <message>
        <source>Reading the tokenizer…</source>
        <translation>正在读取分词器…</translation>
    </message>
    <message>
        <source>Splitting the sentence into tokens…</source>
        <translation>正在把句子切分成词元…</translation>
    </message>
    <message>
        <source>Layer {0} of {1}…</source>
        <translation>第 {0} 层，共 {1} 层…</translation>
    </message>
</context>
<context>
    <name>VarianceLab</name>
    <message>
        <source>samples</source>
        <translation>样本数</translation>
    </message>
    <message>
        <source>seed</source>
        <translation>种子</translation>
    </message>
    <message>
        <source>New seed</source>
        <translation>换种子</translation>
    </message>
    <message>
        <source>One random query against N keys:</source>
        <translation>一个随机查询对 N 个键向量：</translation>
    </message>
    <message>
        <source>q·k</source>
        <translation>q·k</translation>
    </message>
    <message>
        <source>q·k / √d_k</source>
        <translation>q·k / √d_k</translation>
    </message>
    <message>
        <source>d_k</source>
        <translation>d_k</translation>
    </message>
    <message>
        <source>q and k have d_k independent N(0, 1) components, so q·k adds d_k products of variance 1: its variance is d_k. Dividing by √d_k brings it back to 1. Shaded: |x| ≤ 3, where softmax stays soft.</source>
        <translation>q 和 k 各有 d_k 个独立的 N(0, 1) 分量，q·k 是 d_k 个方差为 1 的乘积之和，所以方差为 d_k。除以 √d_k 后方差回到 1。阴影区：|x| ≤ 3，softmax 在这里保持平缓。</translation>
    </message>
    <message>
        <source>Drag to change d_k (log scale); both histograms follow at once</source>
        <translation>拖动以改变 d_k（对数刻度）；两个直方图即时跟随</translation>
    </message>
    <message>
        <source>How many pairs q, k are drawn (100 – 100,000)</source>
        <translation>抽取多少对 q、k（100 – 100,000）</translation>
    </message>
    <message>
        <source>The same seed always draws the same numbers</source>
        <translation>同一个种子总是抽出同样的数</translation>
    </message>
    <message>
        <source>Draw a fresh set of random vectors</source>
        <translation>重新抽一组随机向量</translation>
    </message>
    <message>
        <source>How many keys the random query is compared with</source>
        <translation>随机查询要和多少个键向量比较</translation>
    </message>
    <message>
        <source>Exact sampling: given q, q·k is N(0, |q|²), and |q|² is χ² with d_k degrees of freedom; so each sample is √χ² · z, the same distribution as drawing both vectors, at any d_k in a millisecond</source>
        <translation>精确采样：给定 q 时 q·k 服从 N(0, |q|²)，而 |q|² 服从自由度为 d_k 的 χ² 分布；所以每个样本取 √χ² · z，与分别抽取两个向量的分布完全相同，任何 d_k 都只需一毫秒</translation>
    </message>
    <message>
        <source>Share of {0} random queries whose largest softmax weight exceeds {1} (near one-hot), per d_k</source>
        <translation>各 d_k 下，{0} 个随机查询中最大 softmax 权重超过 {1}（接近 one-hot）的比例</translation>
    </message>
    <message>
        <source>raw q·k</source>
        <translation>原始 q·k</translation>
    </message>
    <message>
        <source>÷ √d_k</source>
        <translation>÷ √d_k</translation>
    </message>
    <message>
        <source>raw q·k &amp;nbsp; {0} N(0, {1})</source>
        <translation>原始 q·k &amp;nbsp; {0} N(0, {1})</translation>
    </message>
    <message>
        <source>scaled q·k / √d_k &amp;nbsp; {0} N(0, 1)</source>
        <translation>缩放后 q·k / √d_k &amp;nbsp; {0} N(0, 1)</translation>
    </message>
    <message>
        <source>mean</source>
        <translation>均值</translation>
    </message>
    <message>
        <source>variance</source>
        <translation>方差</translation>
    </message>
    <message>
        <source>std</source>
        <translation>标准差</translation>
    </message>
    <message>
        <source>measured</source>
        <translation>实测</translation>
    </message>
    <message>
        <source>theory</source>
        <translation>理论</translation>
    </message>
    <message>
        <source>N = {0}</source>
        <translation>N = {0}</translation>
    </message>
    <message>
        <source>raw: max {0}</source>
        <translation>原始最大 {0}</translation>
    </message>
    <message>
        <source>÷ √d_k: max {0}</source>
        <translation>÷ √d_k 最大 {0}</translation>
    </message>
    <message>
        <source>share near one-hot (largest &gt; {0})</source>
        <translation>接近 one-hot 的比例（最大 &gt; {0}）</translation>
    </message>
</context>
<context>
    <name>VectorCanvas</name>
    <message>
        <source>Fit</source>
        <translation>适应窗口</translation>
    </message>
    <message>
        <source>Zoom to show every vector and the unit circle (the wheel zooms too)</source>
        <translation>缩放到能看见所有向量和单位圆（滚轮也能缩放）</translation>
    </message>
    <message>
        <source>component 0</source>
        <translation>分量 0</translation>
    </message>
    <message>
        <source>Drawn: the selected key and the {0} heaviest of {1} keys; {2} more are not drawn (select one in the table to draw it).</source>
        <translation>已绘制：选中的键向量，以及 {1} 个键向量中权重最大的 {0} 个；另有 {2} 个未绘制（在表格中选中一个即可画出）。</translation>
    </message>
    <message>
        <source>component 1</source>
        <translation>分量 1</translation>
    </message>
    <message>
        <source>{0} ({1}-D)</source>
        <translation>{0}（{1} 维）</translation>
    </message>
    <message>
        <source>Components 0 and 1 would draw {0} and {1} on one point: shown in the plane of Q and {2} instead, where their angle is true (d_k = {3}).</source>
        <translation>在分量 0 和 1 上，{0} 和 {1} 会画在同一点：因此改为显示 Q 与 {2} 所在的平面，那里它们的夹角是真实的（d_k = {3}）。</translation>
    </message>
    <message>
        <source>Showing the plane of Q and {0} (d_k = {1}): their angle and lengths are exact; the other keys are projected onto it. Dragging moves a tip only within this plane.</source>
        <translation>显示的是 Q 与 {0} 所在的平面（d_k = {1}）：它们的夹角和长度都是精确的，其他键向量是投影到这个平面上的。拖动只在这个平面内移动尖端。</translation>
    </message>
    <message>
        <source>Showing the best-fitting plane (PCA) of Q and the keys, d_k = {0}; the numbers are exact in {0} dimensions. Dragging moves a tip only within this plane.</source>
        <translation>显示的是最贴近 Q 和各键向量的平面（主成分分析），d_k = {0}；数值按完整的 {0} 维精确计算。拖动只在这个平面内移动尖端。</translation>
    </message>
    <message>
        <source>Showing components 0 and 1 of d_k = {0}; dragging changes only those two. The numbers are exact in {0} dimensions.</source>
        <translation>显示的是 d_k = {0} 中的分量 0 和 1；拖动只改变这两个分量。数值按完整的 {0} 维精确计算。</translation>
    </message>
    <message>
        <source>d_k = 1: every vector lies on the axis; dragging changes its only component.</source>
        <translation>d_k = 1：所有向量都在坐标轴上；拖动改变它唯一的分量。</translation>
    </message>
    <message>
        <source>Clamped: every component must stay within ±{0} (the file format&apos;s limit).</source>
        <translation>已截断：每个分量都必须在 ±{0} 以内（文件格式的限制）。</translation>
    </message>
    <message>
        <source>along Q</source>
        <translation>沿 Q 方向</translation>
    </message>
    <message>
        <source>⊥ Q in the Q–{0} plane</source>
        <translation>⊥ Q（在 Q–{0} 平面内）</translation>
    </message>
    <message>
        <source>PC 1</source>
        <translation>主成分 1</translation>
    </message>
    <message>
        <source>PC 2</source>
        <translation>主成分 2</translation>
    </message>
    <message>
        <source>θ undefined</source>
        <translation>θ 无定义</translation>
    </message>
    <message>
        <source>a zero vector has no direction</source>
        <translation>零向量没有方向</translation>
    </message>
    <message>
        <source>Components 0 and 1</source>
        <translation>分量 0 和 1</translation>
    </message>
    <message>
        <source>Plane of Q and the selected key (angle exact)</source>
        <translation>Q 与所选键向量的平面（角度精确）</translation>
    </message>
    <message>
        <source>PCA of Q and the keys</source>
        <translation>Q 与各键向量的主成分平面</translation>
    </message>
    <message>
        <source>The plane the vectors are drawn on (d_k &gt; 2): the first two components; the plane of Q and the selected key, where their angle and lengths are exact; or the plane closest to Q and all the keys</source>
        <translation>向量画在哪个平面上（d_k &gt; 2 时）：前两个分量；Q 与所选键向量所在的平面，其中它们的夹角和长度都是精确的；或最贴近 Q 和所有键向量的平面</translation>
    </message>
    <message>
        <source>Drag {0}&apos;s tip — Shift: snap to 15°, Ctrl: keep length</source>
        <translation>拖动 {0} 的尖端 — Shift：按 15° 吸附，Ctrl：保持长度</translation>
    </message>
</context>
<context>
    <name>VectorEditor</name>
    <message>
        <source>key {0}</source>
        <translation>键向量 {0}</translation>
    </message>
    <message>
        <source>value {0}</source>
        <translation>值 {0}</translation>
    </message>
    <message>
        <source>Name</source>
        <translation>名称</translation>
    </message>
    <message>
        <source>Q/K {0}</source>
        <translation>Q/K {0}</translation>
    </message>
    <message>
        <source>V {0}</source>
        <translation>V {0}</translation>
    </message>
    <message>
        <source>The key–value pair&apos;s label (double-click to rename)</source>
        <translation>键值对的名称（双击可重命名）</translation>
    </message>
    <message>
        <source>Component {0} of Q and of every key K</source>
        <translation>Q 和每个键向量 K 的分量 {0}</translation>
    </message>
    <message>
        <source>Component {0} of every value V</source>
        <translation>每个值 V 的分量 {0}</translation>
    </message>
    <message>
        <source>{0} component {1} = {2}</source>
        <translation>{0} 的分量 {1} = {2}</translation>
    </message>
    <message>
        <source>The query Q</source>
        <translation>查询 Q</translation>
    </message>
    <message>
        <source>Key K and value V of “{0}” (click to select, double-click to rename)</source>
        <translation>“{0}”的键向量 K 和值 V（单击选中，双击重命名）</translation>
    </message>
    <message>
        <source>{0} component {1}</source>
        <translation>{0} 的分量 {1}</translation>
    </message>
    <message>
        <source>{0}: {1} — kept {2}.</source>
        <translation>{0}：{1} — 保留原值 {2}。</translation>
    </message>
    <message>
        <source>{0}: {1}</source>
        <translation>{0}：{1}</translation>
    </message>
    <message>
        <source>A label cannot be empty — kept “{0}”.</source>
        <translation>名称不能为空 — 保留“{0}”。</translation>
    </message>
    <message>
        <source>A label has at most {0} characters.</source>
        <translation>名称最多 {0} 个字符。</translation>
    </message>
    <message>
        <source>+ Add pair</source>
        <translation>+ 添加键值对</translation>
    </message>
    <message>
        <source>Append a key–value pair of zeros</source>
        <translation>在末尾添加一个全零的键值对</translation>
    </message>
    <message>
        <source>d_v: components of every value</source>
        <translation>d_v：每个值的分量个数</translation>
    </message>
    <message>
        <source> (new components are zeros)</source>
        <translation>（新增分量为 0）</translation>
    </message>
    <message>
        <source>d_k: components of Q and of every key (new ones follow the fill of the scale panel)</source>
        <translation>d_k：Q 和每个键向量的分量数（新分量按缩放面板中的“填充”设置生成）</translation>
    </message>
    <message>
        <source>Q/K: showing {0} of {1} components</source>
        <translation>Q/K：显示 {1} 个分量中的 {0} 个</translation>
    </message>
    <message>
        <source>V: showing {0} of {1} components</source>
        <translation>V：显示 {1} 个分量中的 {0} 个</translation>
    </message>
    <message>
        <source> (paste fills hidden ones too)</source>
        <translation>（粘贴也会填入隐藏的分量）</translation>
    </message>
    <message>
        <source>− Remove {0}</source>
        <translation>− 删除 {0}</translation>
    </message>
    <message>
        <source>Remove the selected pair “{0}”</source>
        <translation>删除选中的键值对“{0}”</translation>
    </message>
    <message>
        <source>At least one key–value pair must remain</source>
        <translation>至少要保留一个键值对</translation>
    </message>
    <message>
        <source>{0} component {1} = {2} — type to edit, Ctrl+V pastes spreadsheet rows</source>
        <translation>{0} 的分量 {1} = {2} — 直接输入即可修改，Ctrl+V 粘贴电子表格中的行</translation>
    </message>
    <message>
        <source>Click to select this key, double-click to rename it</source>
        <translation>单击选中这个键向量，双击重命名</translation>
    </message>
    <message>
        <source>Paste refused, nothing changed: {0}</source>
        <translation>无法粘贴，没有任何改动：{0}</translation>
    </message>
    <message>
        <source>{0} numbers typed, but only {1} fit from this cell to the end of the row: nothing changed.</source>
        <translation>输入了 {0} 个数，但从这一格到行尾只能放下 {1} 个：没有改动。</translation>
    </message>
    <message>
        <source>Typed numbers refused, nothing changed: {0}</source>
        <translation>输入的数无法接受，没有任何改动：{0}</translation>
    </message>
    <message>
        <source>{0} numbers typed: they fill this cell and the ones to its right (one undo step).</source>
        <translation>输入了 {0} 个数：从这一格起向右依次填入（一步撤销）。</translation>
    </message>
    <message>
        <source>Paste refused: {0}</source>
        <translation>无法粘贴：{0}</translation>
    </message>
    <message>
        <source>Pasted {0} × {1} numbers (one undo step).</source>
        <translation>已粘贴 {0} × {1} 个数（可一步撤销）。</translation>
    </message>
    <message>
        <source>the clipboard holds no numbers</source>
        <translation>剪贴板里没有数</translation>
    </message>
    <message>
        <source>{0} rows pasted but only {1} rows from here down</source>
        <translation>粘贴了 {0} 行，但从这里往下只有 {1} 行</translation>
    </message>
    <message>
        <source>row {0} has {1} numbers but only {2} fit from this column</source>
        <translation>第 {0} 行有 {1} 个数，但从这一列起只放得下 {2} 个</translation>
    </message>
    <message>
        <source>row {0}, column {1}: {2}</source>
        <translation>第 {0} 行第 {1} 列：{2}</translation>
    </message>
    <message>
        <source>Copied {0} numbers of the current row.</source>
        <translation>已复制当前行的 {0} 个数。</translation>
    </message>
</context>
<context>
    <name>WeightsChart</name>
    <message>
        <source>Entropy &lt;b&gt;{0}&lt;/b&gt; bits (max {2})&lt;br/&gt;Largest &lt;b&gt;{3}&lt;/b&gt; ({4})</source>
        <translation>熵 &lt;b&gt;{0}&lt;/b&gt; 比特（上⁠限&amp;nbsp;{2}）&lt;br/&gt;最大权重 &lt;b&gt;{3}&lt;/b&gt;（{4}）</translation>
    </message>
    <message>
        <source>Entropy &lt;b&gt;{0}&lt;/b&gt; bits (max log&lt;sub&gt;2&lt;/sub&gt; {1} = {2})&lt;br/&gt;Largest weight &lt;b&gt;{3}&lt;/b&gt; ({4})</source>
        <translation>熵 &lt;b&gt;{0}&lt;/b&gt; 比特（上⁠限&amp;nbsp;log&lt;sub&gt;2&lt;/sub&gt;&amp;nbsp;{1}&amp;nbsp;=&amp;nbsp;{2}）&lt;br/&gt;最大权重 &lt;b&gt;{3}&lt;/b&gt;（{4}）</translation>
    </message>
    <message>
        <source>{0} grey line: the weights without scaling (factor 1, softmax of the raw scores)</source>
        <translation>{0} 灰线：不缩放时的权重（因子为 1，即原始分数的 softmax）</translation>
    </message>
    <message>
        <source>{0} dashed grey: the weights without scaling (factor 1, softmax of the raw scores)</source>
        <translation>{0} 灰色虚线：不缩放时的权重（因子为 1，即原始分数的 softmax）</translation>
    </message>
    <message>
        <source> — the same as the bars, since the factor is 1</source>
        <translation> — 因子为 1，与柱形相同</translation>
    </message>
    <message>
        <source>{0} grey: without scaling (× 1)</source>
        <translation>{0} 灰色：不缩放 (× 1)</translation>
    </message>
    <message>
        <source>{0}: weight {1}, without scaling {2} — click to select</source>
        <translation>{0}：权重 {1}，不缩放时 {2} — 点击选中</translation>
    </message>
</context>
<context>
    <name>presetLabels</name>
    <message>
        <source>call chain</source>
        <translation>调用链</translation>
    </message>
    <message>
        <source>shared state</source>
        <translation>共享状态</translation>
    </message>
    <message>
        <source>config</source>
        <translation>配置</translation>
    </message>
    <message>
        <source>other tests</source>
        <translation>其他测试</translation>
    </message>
</context>
<context>
    <name>presets</name>
    <message>
        <source>Same direction: cos θ = 1</source>
        <translation>同向：cos θ = 1</translation>
    </message>
    <message>
        <source>K1 points exactly the way Q points: the angle is 0°, cos θ = 1 and the dot product is as large as the two lengths allow, |Q|·|K|. K2 is a reference key at 90°.</source>
        <translation>K1 与 Q 指向完全相同：夹角为 0°，cos θ = 1，点积达到两个长度所允许的最大值 |Q|·|K|。K2 是一个成 90° 的参照键向量。</translation>
    </message>
    <message>
        <source>The article&apos;s step 3: scores 1.0, 0.5, 0.0</source>
        <translation>文章的第三步：分数 1.0、0.5、0.0</translation>
    </message>
    <message>
        <source>The article&apos;s step 3 assumes the scaled scores [1.0, 0.5, 0.0]. These keys give exactly that for Q = [1, 0, 1, 0]: K1 = [1, 0, 1, 0] scores 2, K2 = [1, 0, 0, 0] scores 1 and K3 = [0, 1, 0, 1] scores 0, and dividing by √4 = 2 gives 1.0, 0.5 and 0.0. The softmax gives 0.506, 0.307 and 0.186 (about 51%, 31% and 19%), and with the article&apos;s values V₁ = [0.8, 0.2], V₂ = [0.3, 0.7], V₃ = [0.1, 0.9] the output is [0.516, 0.484]. The article prints [0.516, 0.483]: it rounds the weights to three decimals before multiplying and adds the rounded terms (0.101 + 0.215 + 0.167 = 0.483 in the second component); the app multiplies the exact weights. “Library lookup” uses the article&apos;s keys instead, whose scores are 2, 0, 1.</source>
        <translation>文章第三步假设缩放后的分数是 [1.0, 0.5, 0.0]。对 Q = [1, 0, 1, 0]，这里的键向量正好给出这组分数：K1 = [1, 0, 1, 0] 得 2 分，K2 = [1, 0, 0, 0] 得 1 分，K3 = [0, 1, 0, 1] 得 0 分，除以 √4 = 2 后为 1.0、0.5、0.0。softmax 给出 0.506、0.307、0.186（约 51%、31%、19%），配上文章的值向量 V₁ = [0.8, 0.2]、V₂ = [0.3, 0.7]、V₃ = [0.1, 0.9]，输出是 [0.516, 0.484]。文章印的是 [0.516, 0.483]：它先把权重四舍五入到三位小数再相乘，然后把舍入后的各项相加（第二个分量：0.101 + 0.215 + 0.167 = 0.483）；本程序用精确的权重相乘。“图书馆检索”用的则是文章自己的键向量，分数是 2、0、1。</translation>
    </message>
    <message>
        <source>Code review: where does the reviewer look?</source>
        <translation>代码审查：审查者看哪里？</translation>
    </message>
    <message>
        <source>A reviewer checks one function in a large pull request. The query describes what the check needs along four features: calls into the function, shared state, configuration, unrelated tests. Each changed file is a key. The file on the call chain gets about 59% of the attention, the one touching shared state about 30%, the configuration about 10%, and the unrelated test file about 1%: attention is shared out, not given to a single winner.</source>
        <translation>一位审查者要在一个很大的 PR 里检查一个函数。查询用四个特征说明这次检查需要什么：对该函数的调用、共享状态、配置、无关的测试。每个改动过的文件都是一个键向量。调用链上的文件分到约 59% 的注意力，涉及共享状态的约 30%，配置文件约 10%，无关的测试文件约 1%：注意力是按比例分配的，而不是全给一个赢家。</translation>
    </message>
    <message>
        <source>Drag a key around the query</source>
        <translation>绕着查询拖动键向量</translation>
    </message>
    <message>
        <source>A two-dimensional query and three keys you can grab by the tip. Turn a key towards Q and its score, its share of attention and its pull on the output all grow; turn it away and they shrink. Every number on screen is recomputed while you drag.</source>
        <translation>一个二维查询和三个键向量，可以抓住键向量的尖端拖动。把键向量转向 Q，它的分数、分到的注意力和对输出的拉力都会变大；转开则都变小。拖动时，屏幕上的每个数字都会重新计算。</translation>
    </message>
    <message>
        <source>Library lookup</source>
        <translation>图书馆检索</translation>
    </message>
    <message>
        <source>Multi-head attention: 我 爱 北京, two heads</source>
        <translation>多头注意力：我 爱 北京，两个头</translation>
    </message>
    <message>
        <source>The same three words as in “Self-attention: 我 爱 北京”, with d_model = 4 split into h = 2 heads of d_k = 2. W_Q, W_K and W_V are the identity, so head 1 compares only the first two features (a thing, an action) and head 2 only the last two (the speaker, a place): in head 1 我 and 北京 look alike and attend to each other, in head 2 they do not. Each head&apos;s output is two numbers wide; the concatenation puts them side by side (3 × 4) and W_O mixes them back into one 3 × 4 output, in which each column is its own head&apos;s number plus half of the other head&apos;s. Change h to 1 or 4 and watch the same weights split differently; click a head to explore its query on the canvas.</source>
        <translation>与“自注意力：我 爱 北京”相同的三个词，d_model = 4 分成 h = 2 个头，每头 d_k = 2。W_Q、W_K、W_V 为单位矩阵，所以头 1 只比较前两个特征（事物、动作），头 2 只比较后两个（说话人、地点）：在头 1 中 我 和 北京 相似并互相关注，在头 2 中则不然。每个头的输出宽两个数；拼接把它们并排放在一起（3 × 4），W_O 再把它们混合成一个 3 × 4 的输出，其中每列是本头的数加上另一头的一半。把 h 改为 1 或 4，看同样的权重如何以不同方式切分；点击一个头，在画布上探索它的查询。</translation>
    </message>
    <message>
        <source>Opposite directions: cos θ = −1</source>
        <translation>反向：cos θ = −1</translation>
    </message>
    <message>
        <source>K1 points away from Q: the angle is 180°, cos θ = −1 and the dot product is as negative as it can be. Softmax gives such a key the smallest weight. K2 is a reference key at 90°.</source>
        <translation>K1 背对 Q：夹角为 180°，cos θ = −1，点积负到了极限。softmax 给这样的键向量最小的权重。K2 是一个成 90° 的参照键向量。</translation>
    </message>
    <message>
        <source>Perpendicular: cos θ = 0</source>
        <translation>正交：cos θ = 0</translation>
    </message>
    <message>
        <source>K1 is at a right angle to Q: cos θ = 0, so the dot product is 0 however long the vectors are. To attention, K1 is simply unrelated. K2 is a reference key pointing along Q.</source>
        <translation>K1 与 Q 成直角：cos θ = 0，所以无论向量多长，点积都是 0。在注意力看来，K1 与查询毫无关系。K2 是一个沿 Q 方向的参照键向量。</translation>
    </message>
    <message>
        <source>Saturated attention: scores 20, 10, 0</source>
        <translation>饱和的注意力：分数 20、10、0</translation>
    </message>
    <message>
        <source>The same keys as “Soft attention: scores 2, 1, 0”, but the query is ten times longer, so the raw scores become 20, 10 and 0. Without scaling, softmax hands almost everything (0.99995) to the first key: attention has become a hard choice, and the gradient through the other keys all but vanishes. Switching to the automatic 1/√d_k does not help here: d_k is only 2, so the scores are divided by just √2 and the weights stay at 0.999, 0.001 and 0.000. Lower the factor instead: at × 0.1 the scores are 2, 1 and 0 again and the spread comes back (0.665, 0.245 and 0.090, as in “Soft attention: scores 2, 1, 0”).</source>
        <translation>键向量与“柔和的注意力：分数 2、1、0”相同，但查询长了十倍，原始分数因此变成 20、10 和 0。不缩放时，softmax 几乎把一切（0.99995）都交给第一个键向量：注意力成了非此即彼的选择，经过其他键向量的梯度几乎消失。改用自动的 1/√d_k 在这里无济于事：d_k 只有 2，分数只被除以 √2，权重仍是 0.999、0.001 和 0.000。应当调低缩放因子：在 × 0.1 时分数又是 2、1 和 0，权重重新分散（0.665、0.245 和 0.090，与“柔和的注意力：分数 2、1、0”相同）。</translation>
    </message>
    <message>
        <source>Three keys whose raw scores are 2, 1 and 0, used without scaling. Softmax turns them into about 0.665, 0.245 and 0.090: the best match leads, but every key still gets a say. Compare with “Saturated attention: scores 20, 10, 0”.</source>
        <translation>三个键向量的原始分数为 2、1 和 0，不做缩放。softmax 把它们变成约 0.665、0.245 和 0.090：最匹配的键向量领先，但每个键向量仍有一份发言权。可与“饱和的注意力：分数 20、10、0”对比。</translation>
    </message>
    <message>
        <source>Cross-attention: I love Beijing → 我 爱 北京</source>
        <translation>交叉注意力：I love Beijing → 我 爱 北京</translation>
    </message>
    <message>
        <source>Cross-attention in a translation model: the queries come from the sentence being written (the decoder&apos;s target, 我 爱 北京), the keys and values from the sentence being translated (the encoder&apos;s source, I love Beijing). Q = Y·W_Q is 3 × 2, K = X·W_K and V = X·W_V are 3 × 2, so the weights are N_q × N_k = 3 × 3: one row per Chinese word, one column per English word. Here the source embeddings have one hand-made feature each, and each Chinese word mostly shares the feature of its translation, so each gives almost all of its attention to it: “我” to “I”, “爱” to “love” and “北京” to “Beijing” (the diagonal of the weights). The target and source need not be equally long; each row of the weights still adds up to 1. Click a row to make that Chinese word the query you drag in the explorer, against the three English keys.</source>
        <translation>翻译模型中的交叉注意力：查询来自正在生成的句子（解码器的目标句“我 爱 北京”），键向量和值向量来自被翻译的句子（编码器的源句“I love Beijing”）。Q = Y·W_Q 为 3 × 2，K = X·W_K 与 V = X·W_V 为 3 × 2，所以权重是 N_q × N_k = 3 × 3：每个中文词一行，每个英文词一列。这里源句的嵌入各有一个手工设定的特征，每个中文词主要带有其译词的特征，因此几乎把全部注意力给了它：“我”给“I”，“爱”给“love”，“北京”给“Beijing”（权重矩阵的对角线）。目标句与源句不必一样长；每行权重之和仍为 1。点击一行，该中文词就成为你在探索器中拖动的查询，对着三个英文键向量。</translation>
    </message>
    <message>
        <source>Soft attention: scores 2, 1, 0</source>
        <translation>柔和的注意力：分数 2、1、0</translation>
    </message>
    <message>
        <source>You walk into a library looking for one topic: that wish is the query Q = [1, 0, 1, 0]. Each book&apos;s spine label is a key, its contents a value. The first label matches the query exactly (score 2), the second has nothing in common with it (score 0) and the third matches halfway (score 1). After dividing by √4 = 2 the scores are 1.0, 0.0 and 0.5, and the softmax gives the books 0.506, 0.186 and 0.307 of the attention (about 51%, 19% and 31%). The values are the article&apos;s, in the article&apos;s order: V₁ = [0.8, 0.2], V₂ = [0.3, 0.7], V₃ = [0.1, 0.9]. The answer is [0.492, 0.508], a blend led by the first book. The article&apos;s step 4 prints [0.516, 0.483] instead, because its step 3 assumed the scores 1.0, 0.5, 0.0 (weights 0.506, 0.307, 0.186) while its own keys give 1.0, 0.0, 0.5: the second and third weights trade places. The example “The article&apos;s step 3: scores 1.0, 0.5, 0.0” has keys that give the article&apos;s scores, and its output is the article&apos;s. A search engine works the same way: your search words are Q, page titles are K, page contents are V.</source>
        <translation>你走进图书馆，想找某个主题的书：这个意图就是查询 Q = [1, 0, 1, 0]。每本书书脊上的标签是一个键向量 K，书的内容是值向量 V。第一本书的标签与查询完全一致（分数 2），第二本毫无共同之处（分数 0），第三本一半相符（分数 1）。除以 √4 = 2 后分数为 1.0、0.0、0.5，softmax 分给三本书 0.506、0.186、0.307 的注意力（约 51%、19%、31%）。值向量用的是文章里的，顺序也和文章相同：V₁ = [0.8, 0.2]、V₂ = [0.3, 0.7]、V₃ = [0.1, 0.9]。输出是 [0.492, 0.508]，以第一本书为主的混合。文章第四步印的却是 [0.516, 0.483]：它的第三步假设缩放后的分数是 1.0、0.5、0.0（权重 0.506、0.307、0.186），而它自己的键向量给出的是 1.0、0.0、0.5，第二、第三个权重正好对调。示例“文章的第三步：分数 1.0、0.5、0.0”的键向量给出文章假设的分数，输出就是文章的结果。搜索引擎也是这样：搜索词是 Q，网页标题是 K，网页内容是 V。</translation>
    </message>
    <message>
        <source>Self-attention: 我 爱 北京</source>
        <translation>自注意力：我 爱 北京</translation>
    </message>
    <message>
        <source>Self-attention on a three-word sentence: every word plays three parts at once. As a query it asks what it needs from the rest of the sentence, as a key it offers what it can give, and as a value it carries what it means. The embeddings X here have four hand-made features (a thing, an action, the speaker, a place); W_Q, W_K and W_V turn each word into a two-dimensional Q, K and V. The verb “爱” asks for the things involved: it gives about 56% of its attention to “我”, 33% to “北京” and only 11% to itself. “我” asks for the action and gives 71% to “爱”. Each row of the weight matrix adds up to 1. Turn on the causal mask and “我”, the first word, can only look at itself. Click a row to make that word the query you drag in the explorer.</source>
        <translation>一个三词句子上的自注意力：每个词同时扮演三个角色。作为查询，它问自己需要从句子其余部分得到什么；作为键向量，它表明自己能提供什么；作为值，它携带自己的含义。这里的嵌入 X 有四个手工设定的特征（事物、动作、说话人、地点）；W_Q、W_K 和 W_V 把每个词变成二维的 Q、K 和 V。动词“爱”要找的是相关的事物：它把约 56% 的注意力给了“我”，33% 给了“北京”，只留 11% 给自己。“我”要找的是动作，把 71% 给了“爱”。权重矩阵的每一行加起来都是 1。打开因果掩码后，第一个词“我”只能看它自己。点击某一行，那个词就成为你在“向量”页中拖动的查询。</translation>
    </message>
</context>
</TS>
