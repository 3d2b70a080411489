<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN">
<context>
    <name>EngineText</name>
    <message>
        <source>node override</source>
        <translation>节点覆盖</translation>
    </message>
    <message>
        <source>op override</source>
        <translation>算子覆盖</translation>
    </message>
    <message>
        <source>chosen library</source>
        <translation>所选库</translation>
    </message>
    <message>
        <source>ok</source>
        <translation>成功</translation>
    </message>
    <message>
        <source>failed</source>
        <translation>失败</translation>
    </message>
    <message>
        <source>cancelled</source>
        <translation>已取消</translation>
    </message>
    <message>
        <source>This computer</source>
        <translation>本机</translation>
    </message>
    <message>
        <source>%1: %2 runs %3</source>
        <translation>%1：%2 运行 %3</translation>
    </message>
    <message>
        <source>portable fallback after %1: %2</source>
        <translation>%1 之后回退到 portable：%2</translation>
    </message>
    <message>
        <source>connected to %1</source>
        <translation>已连接到 %1</translation>
    </message>
    <message>
        <source>importing %1</source>
        <translation>正在导入 %1</translation>
    </message>
    <message>
        <source>using the model already imported from %1</source>
        <translation>使用已从 %1 导入的模型</translation>
    </message>
    <message>
        <source>plan: %1 nodes after fusion, arena %2</source>
        <translation>计划：融合后 %1 个节点，内存区 %2</translation>
    </message>
    <message>
        <source>built %1 (%2, %3)</source>
        <translation>已构建 %1（%2，%3）</translation>
    </message>
    <message>
        <source>run %1: %2</source>
        <translation>运行%1：%2</translation>
    </message>
</context>
<context>
    <name>GraphFolding</name>
    <message>
        <source>Cannot fold these modules: another node runs between their nodes (%1). Expand one of them first.</source>
        <translation>无法折叠这些模块：有其他节点在它们的节点之间运行（%1）。请先展开其中一个。</translation>
    </message>
</context>
<context>
    <name>GraphPartitions</name>
    <message>
        <source>CPU provider (fallback)</source>
        <translation>CPU 提供程序（回退）</translation>
    </message>
    <message>
        <source>split between partitions</source>
        <translation>分布在多个分区</translation>
    </message>
    <message>
        <source>not an ONNX node (added by Embark)</source>
        <translation>非 ONNX 节点（由 Embark 添加）</translation>
    </message>
    <message>
        <source>EP subgraph %1</source>
        <translation>EP 子图 %1</translation>
    </message>
    <message>
        <source>EP subgraph %1 (%2)</source>
        <translation>EP 子图 %1（%2）</translation>
    </message>
</context>
<context>
    <name>Language</name>
    <message>
        <source>System language</source>
        <translation>系统语言</translation>
    </message>
</context>
<context>
    <name>QGnomeTheme</name>
    <message>
        <source>&amp;OK</source>
        <translation>确定(&amp;O)</translation>
    </message>
    <message>
        <source>&amp;Save</source>
        <translation>保存(&amp;S)</translation>
    </message>
    <message>
        <source>&amp;Cancel</source>
        <translation>取消(&amp;C)</translation>
    </message>
    <message>
        <source>&amp;Close</source>
        <translation>关闭(&amp;C)</translation>
    </message>
    <message>
        <source>Close without Saving</source>
        <translation>关闭且不保存</translation>
    </message>
</context>
<context>
    <name>QPlatformTheme</name>
    <message>
        <source>OK</source>
        <translation>确定</translation>
    </message>
    <message>
        <source>Save</source>
        <translation>保存</translation>
    </message>
    <message>
        <source>Save All</source>
        <translation>全部保存</translation>
    </message>
    <message>
        <source>Open</source>
        <translation>打开</translation>
    </message>
    <message>
        <source>&amp;Yes</source>
        <translation>是(&amp;Y)</translation>
    </message>
    <message>
        <source>Yes to &amp;All</source>
        <translation>全部是(&amp;A)</translation>
    </message>
    <message>
        <source>&amp;No</source>
        <translation>否(&amp;N)</translation>
    </message>
    <message>
        <source>N&amp;o to All</source>
        <translation>全部否(&amp;O)</translation>
    </message>
    <message>
        <source>Abort</source>
        <translation>中止</translation>
    </message>
    <message>
        <source>Retry</source>
        <translation>重试</translation>
    </message>
    <message>
        <source>Ignore</source>
        <translation>忽略</translation>
    </message>
    <message>
        <source>Close</source>
        <translation>关闭</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <source>Discard</source>
        <translation>放弃</translation>
    </message>
    <message>
        <source>Help</source>
        <translation>帮助</translation>
    </message>
    <message>
        <source>Apply</source>
        <translation>应用</translation>
    </message>
    <message>
        <source>Reset</source>
        <translation>重置</translation>
    </message>
    <message>
        <source>Restore Defaults</source>
        <translation>恢复默认值</translation>
    </message>
</context>
<context>
    <name>RunReport</name>
    <message>
        <source>A report is written as HTML or PDF: name the file .html or .pdf (not &apos;%1&apos;).</source>
        <translation>报告以 HTML 或 PDF 格式写出：请将文件命名为 .html 或 .pdf（而不是“%1”）。</translation>
    </message>
    <message>
        <source>Cannot write %1: %2</source>
        <translation>无法写入 %1：%2</translation>
    </message>
</context>
<context>
    <name>SessionCommands</name>
    <message>
        <source>Set board to %1</source>
        <translation>将开发板设为 %1</translation>
    </message>
    <message>
        <source>Set library to %1</source>
        <translation>将内核库设为 %1</translation>
    </message>
    <message>
        <source>Remove the override of node %1</source>
        <translation>删除节点 %1 的覆盖</translation>
    </message>
    <message>
        <source>Run node %1 on %2</source>
        <translation>在 %2 上运行节点 %1</translation>
    </message>
    <message>
        <source>Remove the override of every %1</source>
        <translation>删除所有 %1 的覆盖</translation>
    </message>
    <message>
        <source>Run every %1 on %2</source>
        <translation>在 %2 上运行所有 %1</translation>
    </message>
</context>
<context>
    <name>embark::ui::BoardDialog</name>
    <message>
        <source>User board</source>
        <translation>用户开发板</translation>
    </message>
    <message>
        <source> MiB</source>
        <translation> MiB</translation>
    </message>
    <message>
        <source>SSH</source>
        <translation>SSH</translation>
    </message>
    <message>
        <source>Local (host or qemu-user)</source>
        <translation>本地（主机或 qemu-user）</translation>
    </message>
    <message>
        <source>host name or ~/.ssh/config alias</source>
        <translation>主机名或 ~/.ssh/config 别名</translation>
    </message>
    <message>
        <source>e.g. qemu-riscv64-static -cpu rv64,v=true</source>
        <translation>例如 qemu-riscv64-static -cpu rv64,v=true</translation>
    </message>
    <message>
        <source>Id:</source>
        <translation>标识：</translation>
    </message>
    <message>
        <source>Name:</source>
        <translation>名称：</translation>
    </message>
    <message>
        <source>Architecture:</source>
        <translation>架构：</translation>
    </message>
    <message>
        <source>ISA:</source>
        <translation>指令集：</translation>
    </message>
    <message>
        <source>Compiler flags:</source>
        <translation>编译器选项：</translation>
    </message>
    <message>
        <source>Cores:</source>
        <translation>核心数：</translation>
    </message>
    <message>
        <source>Memory:</source>
        <translation>内存：</translation>
    </message>
    <message>
        <source>Runner:</source>
        <translation>运行方式：</translation>
    </message>
    <message>
        <source>SSH host:</source>
        <translation>SSH 主机：</translation>
    </message>
    <message>
        <source>Exec prefix:</source>
        <translation>执行前缀：</translation>
    </message>
    <message>
        <source>Id: use lower-case letters, digits, &apos;.&apos;, &apos;_&apos; or &apos;-&apos; (it names the file).</source>
        <translation>标识：请使用小写字母、数字、“.”、“_”或“-”（它用作文件名）。</translation>
    </message>
    <message>
        <source>SSH host: an SSH board needs a host name or an ~/.ssh/config alias.</source>
        <translation>SSH 主机：SSH 开发板需要主机名或 ~/.ssh/config 别名。</translation>
    </message>
    <message>
        <source>Cannot save board</source>
        <translation>无法保存开发板</translation>
    </message>
    <message>
        <source>Name: give the board a name to show in the board picker.</source>
        <translation>名称：请为开发板设置一个在选择列表中显示的名称。</translation>
    </message>
</context>
<context>
    <name>embark::ui::ChartWidget</name>
    <message>
        <source>Export...</source>
        <translation>导出…</translation>
    </message>
    <message>
        <source>Save the chart as PNG, PDF or SVG, or its data as CSV</source>
        <translation>将图表保存为 PNG、PDF 或 SVG，或将数据保存为 CSV</translation>
    </message>
    <message>
        <source>Cannot export to &apos;%1&apos;: use a .png, .pdf, .svg or .csv file name.</source>
        <translation>无法导出到“%1”：请使用 .png、.pdf、.svg 或 .csv 文件名。</translation>
    </message>
    <message>
        <source>Cannot write &apos;%1&apos;: check that the folder exists and is writable.</source>
        <translation>无法写入“%1”：请检查文件夹是否存在且可写。</translation>
    </message>
    <message>
        <source>Export chart</source>
        <translation>导出图表</translation>
    </message>
    <message>
        <source>PNG image (*.png);;PDF document (*.pdf);;SVG image (*.svg);;CSV data (*.csv)</source>
        <translation>PNG 图像 (*.png);;PDF 文档 (*.pdf);;SVG 图像 (*.svg);;CSV 数据 (*.csv)</translation>
    </message>
    <message>
        <source>Export failed</source>
        <translation>导出失败</translation>
    </message>
</context>
<context>
    <name>embark::ui::ChartsPanel</name>
    <message>
        <source>Timing</source>
        <translation>耗时</translation>
    </message>
    <message>
        <source>Accuracy</source>
        <translation>精度</translation>
    </message>
    <message>
        <source>Latency</source>
        <translation>延迟</translation>
    </message>
    <message>
        <source>Comparison</source>
        <translation>比较</translation>
    </message>
    <message>
        <source>run #%1</source>
        <translation>运行 #%1</translation>
    </message>
    <message>
        <source>unsaved run</source>
        <translation>未保存的运行</translation>
    </message>
    <message>
        <source>Layer timing · %1</source>
        <translation>逐层耗时 · %1</translation>
    </message>
    <message>
        <source>Layer accuracy · %1</source>
        <translation>逐层精度 · %1</translation>
    </message>
    <message>
        <source>Latency · %1</source>
        <translation>延迟 · %1</translation>
    </message>
    <message>
        <source>Run comparison · %1</source>
        <translation>运行对比 · %1</translation>
    </message>
    <message>
        <source> vs </source>
        <translation> 对比 </translation>
    </message>
</context>
<context>
    <name>embark::ui::EpOptionsDialog</name>
    <message>
        <source>SpacemiT EP options</source>
        <translation>SpacemiT EP 选项</translation>
    </message>
    <message>
        <source>Options the SpacemiT execution provider runs with on the board (environment variables of onnxruntime_perf_test and onnx_test_runner); unset options keep the EP&apos;s default.</source>
        <translation>SpacemiT 执行提供程序在开发板上运行时使用的选项（onnxruntime_perf_test 和 onnx_test_runner 的环境变量）；未设置的选项保持 EP 的默认值。</translation>
    </message>
    <message>
        <source>(default)</source>
        <translation>（默认）</translation>
    </message>
</context>
<context>
    <name>embark::ui::FarmDevicesPanel</name>
    <message>
        <source>Board</source>
        <translation>开发板</translation>
    </message>
    <message>
        <source>Device</source>
        <translation>设备</translation>
    </message>
    <message>
        <source>State</source>
        <translation>状态</translation>
    </message>
    <message>
        <source>LAVA says</source>
        <translation>LAVA 报告</translation>
    </message>
    <message>
        <source>bad</source>
        <translation>故障</translation>
    </message>
    <message>
        <source>offline</source>
        <translation>离线</translation>
    </message>
    <message>
        <source>running job %1</source>
        <translation>正在运行作业 %1</translation>
    </message>
    <message>
        <source>running job %1 for %2</source>
        <translation>正在为 %2 运行作业 %1</translation>
    </message>
    <message>
        <source>reserved for job %1</source>
        <translation>已为作业 %1 预留</translation>
    </message>
    <message>
        <source>reserved for job %1 of %2</source>
        <translation>已为 %2 的作业 %1 预留</translation>
    </message>
    <message>
        <source>idle</source>
        <translation>空闲</translation>
    </message>
    <message>
        <source>no device</source>
        <translation>无设备</translation>
    </message>
    <message>
        <source>%1 has no device of type &apos;%2&apos; with the board&apos;s tags</source>
        <translation>%1 没有类型为“%2”且带有该开发板标签的设备</translation>
    </message>
    <message>
        <source>Asking LAVA...</source>
        <translation>正在查询 LAVA…</translation>
    </message>
    <message>
        <source>No farm board: a board file with a &quot;farm&quot; object names a LAVA instance and a device type (see docs/farm.md).</source>
        <translation>没有设备农场开发板：开发板文件中的 &quot;farm&quot; 对象指定 LAVA 实例和设备类型（见 docs/farm.md）。</translation>
    </message>
    <message>
        <source>Updated %1</source>
        <translation>更新于 %1</translation>
    </message>
</context>
<context>
    <name>embark::ui::GraphOverview</name>
    <message>
        <source>Overview: click or drag to move the view</source>
        <translation>概览：单击或拖动以移动视图</translation>
    </message>
</context>
<context>
    <name>embark::ui::GraphPanel</name>
    <message>
        <source>Find node by name or op (Ctrl+F)</source>
        <translation>按名称或算子查找节点（Ctrl+F）</translation>
    </message>
    <message numerus="yes">
        <source>%n match(es)</source>
        <translation>
            <numerusform>%n 个匹配</numerusform>
        </translation>
    </message>
    <message>
        <source>Enter: next match, Shift+Enter: previous match</source>
        <translation>Enter：下一个匹配，Shift+Enter：上一个匹配</translation>
    </message>
    <message>
        <source>Previous match (Shift+Enter)</source>
        <translation>上一个匹配 (Shift+Enter)</translation>
    </message>
    <message>
        <source>Next match (Enter)</source>
        <translation>下一个匹配 (Enter)</translation>
    </message>
    <message>
        <source>Selection</source>
        <translation>选中项</translation>
    </message>
    <message>
        <source>Zoom to the selected and linked nodes</source>
        <translation>缩放到选中及关联的节点</translation>
    </message>
    <message>
        <source>Fit</source>
        <translation>适应</translation>
    </message>
    <message>
        <source>Show the whole graph</source>
        <translation>显示整个图</translation>
    </message>
    <message>
        <source>Overview</source>
        <translation>概览</translation>
    </message>
    <message>
        <source>Show or hide the overview of the graph</source>
        <translation>显示或隐藏图的概览</translation>
    </message>
    <message>
        <source>no match</source>
        <translation>无匹配</translation>
    </message>
    <message>
        <source>%1 of %2</source>
        <translation>第 %1 个，共 %2 个</translation>
    </message>
    <message>
        <source>What the node colours mean. A folded corner and a &quot;+ ...&quot; line mark a fused node and the ops it absorbed.</source>
        <translation>节点颜色的含义。折角和“+ ...”行标记融合节点及其吸收的算子。</translation>
    </message>
</context>
<context>
    <name>embark::ui::GraphScene</name>
    <message>
        <source>%1
%2 %3</source>
        <translation>%1
%2 %3</translation>
    </message>
    <message>
        <source>%1 &apos;%2&apos;</source>
        <translation>%1“%2”</translation>
    </message>
    <message>
        <source>graph input %1</source>
        <translation>图输入 %1</translation>
    </message>
    <message>
        <source>graph output %1</source>
        <translation>图输出 %1</translation>
    </message>
    <message>
        <source>fused: absorbed %1</source>
        <translation>已融合：吸收了 %1</translation>
    </message>
    <message>
        <source>from the original nodes %1</source>
        <translation>来自原始节点 %1</translation>
    </message>
    <message>
        <source>Colour: %1</source>
        <translation>颜色：%1</translation>
    </message>
    <message>
        <source>no figure</source>
        <translation>无数据</translation>
    </message>
    <message>
        <source>Colour: kernel library</source>
        <translation>颜色：内核库</translation>
    </message>
    <message>
        <source>Colour: op category</source>
        <translation>颜色：算子类别</translation>
    </message>
    <message>
        <source>not assigned</source>
        <translation>未分配</translation>
    </message>
    <message numerus="yes">
        <source>%n nodes folded</source>
        <translation>
            <numerusform>已折叠 %n 个节点</numerusform>
        </translation>
    </message>
    <message>
        <source>Colour: %1, log scale</source>
        <translation>颜色：%1，对数刻度</translation>
    </message>
    <message>
        <source>folded module</source>
        <translation>已折叠模块</translation>
    </message>
    <message>
        <source>Colour: %1 against the tolerance %2</source>
        <translation>颜色：%1（相对于容差 %2）</translation>
    </message>
    <message>
        <source>≤ %1</source>
        <translation>≤ %1</translation>
    </message>
    <message>
        <source>≤ %1 (within tolerance)</source>
        <translation>≤ %1（在容差内）</translation>
    </message>
    <message>
        <source>&gt; %1 (above tolerance)</source>
        <translation>&gt; %1（超出容差）</translation>
    </message>
    <message>
        <source>≥ %1</source>
        <translation>≥ %1</translation>
    </message>
    <message>
        <source>unsupported: %1</source>
        <translation>不支持：%1</translation>
    </message>
    <message>
        <source>unsupported op</source>
        <translation>不支持的算子</translation>
    </message>
</context>
<context>
    <name>embark::ui::HostKeyDialog</name>
    <message>
        <source>Unknown SSH host key</source>
        <translation>未知的 SSH 主机密钥</translation>
    </message>
    <message>
        <source>&lt;b&gt;%1&lt;/b&gt; is not in your known hosts yet. Compare this fingerprint with the board&apos;s own (on the board: &lt;tt&gt;ssh-keygen -lf /etc/ssh/ssh_host_%2_key.pub&lt;/tt&gt;) before you trust it. A wrong fingerprint means you may not be talking to your board.</source>
        <translation>&lt;b&gt;%1&lt;/b&gt; 尚不在您的已知主机列表中。信任之前，请将此指纹与开发板自身的指纹比较（在开发板上运行：&lt;tt&gt;ssh-keygen -lf /etc/ssh/ssh_host_%2_key.pub&lt;/tt&gt;）。指纹不一致说明您连接的可能不是您的开发板。</translation>
    </message>
    <message>
        <source>Host:</source>
        <translation>主机：</translation>
    </message>
    <message>
        <source>Port:</source>
        <translation>端口：</translation>
    </message>
    <message>
        <source>Key type:</source>
        <translation>密钥类型：</translation>
    </message>
    <message>
        <source>Fingerprint:</source>
        <translation>指纹：</translation>
    </message>
    <message>
        <source>Recorded in:</source>
        <translation>记录到：</translation>
    </message>
    <message>
        <source>(the default known_hosts)</source>
        <translation>（默认的 known_hosts）</translation>
    </message>
    <message>
        <source>Trust and remember</source>
        <translation>信任并记住</translation>
    </message>
    <message>
        <source>Reject</source>
        <translation>拒绝</translation>
    </message>
</context>
<context>
    <name>embark::ui::InputShapesDialog</name>
    <message>
        <source>no shape declared</source>
        <translation>未声明形状</translation>
    </message>
    <message>
        <source>scalar</source>
        <translation>标量</translation>
    </message>
    <message>
        <source>Input shapes of %1</source>
        <translation>%1 的输入形状</translation>
    </message>
    <message>
        <source>Some inputs of this model have free dimensions (a batch size, an image size, ...). Embark plans memory and generates code for fixed shapes: choose the size of each free dimension.</source>
        <translation>该模型的某些输入具有自由维度（批大小、图像尺寸等）。Embark 按固定形状规划内存并生成代码：请为每个自由维度选择大小。</translation>
    </message>
    <message>
        <source>e.g. 1x3x224x224</source>
        <translation>例如 1x3x224x224</translation>
    </message>
    <message>
        <source>dimension %1</source>
        <translation>维度 %1</translation>
    </message>
    <message>
        <source>Free dimension %1 of input %2</source>
        <translation>输入 %2 的自由维度 %1</translation>
    </message>
    <message>
        <source>&lt;b&gt;%1&lt;/b&gt; (%2)&lt;br&gt;&lt;small&gt;declared: %3&lt;/small&gt;</source>
        <translation>&lt;b&gt;%1&lt;/b&gt; (%2)&lt;br&gt;&lt;small&gt;声明：%3&lt;/small&gt;</translation>
    </message>
    <message>
        <source>&amp;Open</source>
        <translation>打开(&amp;O)</translation>
    </message>
    <message>
        <source>Enter the shape of %1 as sizes joined by x, e.g. 1x3x224x224.</source>
        <translation>请以 x 连接的尺寸输入 %1 的形状，例如 1x3x224x224。</translation>
    </message>
</context>
<context>
    <name>embark::ui::JobsPanel</name>
    <message>
        <source>Job</source>
        <translation>任务</translation>
    </message>
    <message>
        <source>State</source>
        <translation>状态</translation>
    </message>
    <message>
        <source>Progress</source>
        <translation>进度</translation>
    </message>
    <message>
        <source>Elapsed</source>
        <translation>已用时间</translation>
    </message>
    <message>
        <source>Select a job to see its log.</source>
        <translation>选择一个任务以查看其日志。</translation>
    </message>
    <message>
        <source>&amp;Cancel job</source>
        <translation>取消任务(&amp;C)</translation>
    </message>
    <message>
        <source>C&amp;lear finished</source>
        <translation>清除已完成(&amp;L)</translation>
    </message>
    <message>
        <source>Queued</source>
        <translation>排队中</translation>
    </message>
    <message>
        <source>Running</source>
        <translation>运行中</translation>
    </message>
    <message>
        <source>Succeeded</source>
        <translation>成功</translation>
    </message>
    <message>
        <source>Failed</source>
        <translation>失败</translation>
    </message>
    <message>
        <source>Cancelled</source>
        <translation>已取消</translation>
    </message>
    <message>
        <source>%1 s</source>
        <translation>%1 秒</translation>
    </message>
    <message>
        <source>resolve</source>
        <translation>解析</translation>
    </message>
    <message>
        <source>tools</source>
        <translation>工具</translation>
    </message>
    <message>
        <source>import</source>
        <translation>导入</translation>
    </message>
    <message>
        <source>plan</source>
        <translation>规划</translation>
    </message>
    <message>
        <source>export</source>
        <translation>导出</translation>
    </message>
    <message>
        <source>fits</source>
        <translation>容量检查</translation>
    </message>
    <message>
        <source>build</source>
        <translation>构建</translation>
    </message>
    <message>
        <source>deploy</source>
        <translation>部署</translation>
    </message>
    <message>
        <source>run</source>
        <translation>运行</translation>
    </message>
    <message>
        <source>compare</source>
        <translation>比较</translation>
    </message>
    <message>
        <source>store</source>
        <translation>保存</translation>
    </message>
    <message>
        <source>build XNNPACK</source>
        <translation>构建 XNNPACK</translation>
    </message>
    <message>
        <source>iteration %1: %2 ms</source>
        <translation>第 %1 次迭代：%2 毫秒</translation>
    </message>
    <message>
        <source>board run of %1 (%2, %3): %4 layer(s), %5 thread(s), %6 warm-up and %7 timed iteration(s)</source>
        <translation>在开发板上运行 %1（%2，%3）：%4 层，%5 个线程，%6 次预热和 %7 次计时迭代</translation>
    </message>
    <message>
        <source>output %1 (%2) written to %3</source>
        <translation>输出 %1 (%2) 已写入 %3</translation>
    </message>
    <message>
        <source>check of %1 on the board: max abs %2, max rel %3 (tolerance %4): %5</source>
        <translation>开发板上 %1 的检查：最大绝对误差 %2，最大相对误差 %3（容差 %4）：%5</translation>
    </message>
    <message>
        <source>ok</source>
        <translation>通过</translation>
    </message>
    <message>
        <source>NOT OK</source>
        <translation>未通过</translation>
    </message>
    <message>
        <source>error on the board (%1): %2</source>
        <translation>开发板上出错 (%1)：%2</translation>
    </message>
    <message>
        <source>Started</source>
        <translation>开始时间</translation>
    </message>
    <message>
        <source>%1, %2</source>
        <translation>%1，%2</translation>
    </message>
    <message>
        <source>Started at %1</source>
        <translation>开始于 %1</translation>
    </message>
    <message>
        <source>%1 (%2/%3)</source>
        <translation>%1 (%2/%3)</translation>
    </message>
    <message>
        <source>predicted class %1 (score %2); top %3: %4</source>
        <translation>预测类别 %1（得分 %2）；前 %3：%4</translation>
    </message>
    <message>
        <source>&amp;Open output folder</source>
        <translation>打开输出文件夹(&amp;O)</translation>
    </message>
    <message>
        <source>Open the folder the selected job wrote (the export, the build) in the file manager</source>
        <translation>在文件管理器中打开所选任务写入的文件夹（导出、构建）</translation>
    </message>
    <message>
        <source>&apos;%1&apos; is not on this computer any more (was the export replaced?)</source>
        <translation>“%1”已不在本机上（导出是否已被替换？）</translation>
    </message>
</context>
<context>
    <name>embark::ui::LatencyChart</name>
    <message>
        <source>Latency distribution</source>
        <translation>延迟分布</translation>
    </message>
    <message>
        <source>latency (ms)</source>
        <translation>延迟（毫秒）</translation>
    </message>
    <message>
        <source>iterations</source>
        <translation>迭代次数</translation>
    </message>
    <message>
        <source>Run a benchmark (F5) to see how the latency varies over the iterations.</source>
        <translation>运行基准测试 (F5) 以查看延迟在各次迭代中的变化。</translation>
    </message>
    <message>
        <source>latency (%1)</source>
        <translation>延迟（%1）</translation>
    </message>
    <message>
        <source>median %1</source>
        <translation>中位数 %1</translation>
    </message>
    <message>
        <source>p90 %1</source>
        <translation>p90 %1</translation>
    </message>
</context>
<context>
    <name>embark::ui::LayerAccuracyChart</name>
    <message>
        <source>Per-layer accuracy</source>
        <translation>逐层精度</translation>
    </message>
    <message>
        <source>Cosine similarity</source>
        <translation>余弦相似度</translation>
    </message>
    <message>
        <source>SNR (dB)</source>
        <translation>信噪比（dB）</translation>
    </message>
    <message>
        <source>Max relative error</source>
        <translation>最大相对误差</translation>
    </message>
    <message>
        <source>Metric:</source>
        <translation>指标：</translation>
    </message>
    <message>
        <source>Run a benchmark (F5) to see each layer&apos;s accuracy against the reference.</source>
        <translation>运行基准测试 (F5) 以查看每层相对参考实现的精度。</translation>
    </message>
    <message>
        <source>&lt;b&gt;%1&lt;/b&gt; (layer %2)&lt;br&gt;cosine %3&lt;br&gt;SNR %4 dB&lt;br&gt;max relative error %5</source>
        <translation>&lt;b&gt;%1&lt;/b&gt;（第 %2 层）&lt;br&gt;余弦 %3&lt;br&gt;信噪比 %4 dB&lt;br&gt;最大相对误差 %5</translation>
    </message>
    <message>
        <source>&lt;br&gt;&lt;b&gt;worst layer&lt;/b&gt; for this metric</source>
        <translation>&lt;br&gt;该指标的&lt;b&gt;最差层&lt;/b&gt;</translation>
    </message>
    <message>
        <source>&lt;br&gt;&lt;b&gt;first divergent layer&lt;/b&gt;</source>
        <translation>&lt;br&gt;&lt;b&gt;第一个发散层&lt;/b&gt;</translation>
    </message>
    <message>
        <source>layer (schedule order; hover a point for its name)</source>
        <translation>层（调度顺序；悬停在点上查看名称）</translation>
    </message>
    <message>
        <source>tolerance %1</source>
        <translation>容差 %1</translation>
    </message>
    <message>
        <source>tolerance %1 dB</source>
        <translation>容差 %1 dB</translation>
    </message>
    <message>
        <source>worst: %1</source>
        <translation>最差：%1</translation>
    </message>
    <message>
        <source>first divergent layer: %1 (layer %2)</source>
        <translation>第一个发散层：%1（第 %2 层）</translation>
    </message>
</context>
<context>
    <name>embark::ui::LayerTimingChart</name>
    <message>
        <source>Per-layer timing</source>
        <translation>逐层耗时</translation>
    </message>
    <message>
        <source>Slowest layers</source>
        <translation>最慢的层</translation>
    </message>
    <message>
        <source>All layers in graph order</source>
        <translation>按图顺序的所有层</translation>
    </message>
    <message>
        <source>Totals by op type</source>
        <translation>按算子类型汇总</translation>
    </message>
    <message>
        <source>Slowest layers first, every layer in graph order (scroll with the wheel), or the time of all layers of each op type added up</source>
        <translation>最慢的层优先、按图顺序的每一层（用滚轮滚动），或每种算子类型所有层的时间总和</translation>
    </message>
    <message>
        <source>all</source>
        <translation>全部</translation>
    </message>
    <message>
        <source>top </source>
        <translation>前 </translation>
    </message>
    <message>
        <source>How many of the slowest layers to show (0 = all; the rest scroll)</source>
        <translation>显示多少个最慢的层（0 = 全部；其余可滚动）</translation>
    </message>
    <message>
        <source>Show:</source>
        <translation>显示：</translation>
    </message>
    <message>
        <source>time per iteration (ms)</source>
        <translation>每次迭代时间 (毫秒)</translation>
    </message>
    <message>
        <source>Run a benchmark (F5) to see per-layer timings.</source>
        <translation>运行基准测试 (F5) 以查看每层耗时。</translation>
    </message>
    <message>
        <source>1 layer</source>
        <translation>1 层</translation>
    </message>
    <message>
        <source>%1 layers</source>
        <translation>%1 层</translation>
    </message>
    <message>
        <source>%1 ×%2</source>
        <translation>%1 ×%2</translation>
    </message>
    <message>
        <source>unknown library</source>
        <translation>未知库</translation>
    </message>
    <message>
        <source>&lt;br&gt;library: %1&lt;br&gt;time: %2 of %3 (%4%)</source>
        <translation>&lt;br&gt;库：%1&lt;br&gt;时间：%2 / %3（%4%）</translation>
    </message>
    <message>
        <source>&lt;b&gt;%1&lt;/b&gt;&lt;br&gt;op: %2&lt;br&gt;library: %3&lt;br&gt;time: %4 (%5% of %6)&lt;br&gt;&lt;i&gt;click to select it in the graph&lt;/i&gt;</source>
        <translation>&lt;b&gt;%1&lt;/b&gt;&lt;br&gt;算子：%2&lt;br&gt;库：%3&lt;br&gt;时间：%4（占 %6 的 %5%）&lt;br&gt;&lt;i&gt;单击可在图中选中&lt;/i&gt;</translation>
    </message>
    <message>
        <source>time per iteration (%1)</source>
        <translation>每次迭代时间（%1）</translation>
    </message>
    <message numerus="yes">
        <source>%1 over %n layer(s) in %2 op types</source>
        <translation>
            <numerusform>%1，共 %n 层，%2 种算子</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%1 over %n layer(s); hover for details, click to select</source>
        <translation>
            <numerusform>%1，共 %n 层；悬停查看详情，单击选中</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>embark::ui::MainWindow</name>
    <message>
        <source>Embark</source>
        <translation>Embark</translation>
    </message>
    <message>
        <source>Open an ONNX model (Ctrl+O) or drop one on the window.</source>
        <translation>打开 ONNX 模型（Ctrl+O）或将其拖放到窗口中。</translation>
    </message>
    <message>
        <source>&amp;File</source>
        <translation>文件(&amp;F)</translation>
    </message>
    <message>
        <source>&amp;Open model...</source>
        <translation>打开模型(&amp;O)…</translation>
    </message>
    <message>
        <source>Open ONNX model</source>
        <translation>打开 ONNX 模型</translation>
    </message>
    <message>
        <source>ONNX models (*.onnx)</source>
        <translation>ONNX 模型 (*.onnx)</translation>
    </message>
    <message>
        <source>Open &amp;recent</source>
        <translation>最近打开(&amp;R)</translation>
    </message>
    <message>
        <source>&amp;Quit</source>
        <translation>退出(&amp;Q)</translation>
    </message>
    <message>
        <source>&amp;Edit</source>
        <translation>编辑(&amp;E)</translation>
    </message>
    <message>
        <source>Undo</source>
        <translation>撤销</translation>
    </message>
    <message>
        <source>Redo</source>
        <translation>重做</translation>
    </message>
    <message>
        <source>&amp;View</source>
        <translation>视图(&amp;V)</translation>
    </message>
    <message>
        <source>&amp;Fit graph</source>
        <translation>适应窗口(&amp;F)</translation>
    </message>
    <message>
        <source>Zoom &amp;in</source>
        <translation>放大(&amp;I)</translation>
    </message>
    <message>
        <source>Zoom &amp;out</source>
        <translation>缩小(&amp;O)</translation>
    </message>
    <message>
        <source>&amp;Find node...</source>
        <translation>查找节点(&amp;F)…</translation>
    </message>
    <message>
        <source>&amp;Before and after side by side</source>
        <translation>前后并排显示(&amp;B)</translation>
    </message>
    <message>
        <source>&amp;Settings</source>
        <translation>设置(&amp;S)</translation>
    </message>
    <message>
        <source>&amp;Language</source>
        <translation>语言(&amp;L)</translation>
    </message>
    <message>
        <source>Language</source>
        <translation>语言</translation>
    </message>
    <message>
        <source>The new language applies the next time Embark starts.</source>
        <translation>新语言将在下次启动 Embark 时生效。</translation>
    </message>
    <message>
        <source>&amp;Help</source>
        <translation>帮助(&amp;H)</translation>
    </message>
    <message>
        <source>&amp;About Embark</source>
        <translation>关于 Embark(&amp;A)</translation>
    </message>
    <message>
        <source>About Embark</source>
        <translation>关于 Embark</translation>
    </message>
    <message>
        <source>&lt;h3&gt;Embark %1&lt;/h3&gt;&lt;p&gt;From an ONNX model to an embedded board: inspect, fuse, choose a board and kernel library, export, run and compare.&lt;/p&gt;</source>
        <translation>&lt;h3&gt;Embark %1&lt;/h3&gt;&lt;p&gt;从 ONNX 模型到嵌入式开发板：检查、融合、选择开发板和内核库、导出、运行并比较。&lt;/p&gt;</translation>
    </message>
    <message>
        <source>Main</source>
        <translation>主工具栏</translation>
    </message>
    <message>
        <source>%1 - Embark</source>
        <translation>%1 - Embark</translation>
    </message>
    <message>
        <source>Properties</source>
        <translation>属性</translation>
    </message>
    <message>
        <source>Target</source>
        <translation>目标</translation>
    </message>
    <message>
        <source>Charts</source>
        <translation>图表</translation>
    </message>
    <message>
        <source>Cannot open model</source>
        <translation>无法打开模型</translation>
    </message>
    <message>
        <source>Cannot open %1</source>
        <translation>无法打开 %1</translation>
    </message>
    <message>
        <source>Opened %1: %2 nodes, %3 after fusion</source>
        <translation>已打开 %1：%2 个节点，融合后 %3 个</translation>
    </message>
    <message>
        <source>Run node &apos;%1&apos; on</source>
        <translation>节点“%1”运行于</translation>
    </message>
    <message>
        <source>Run every %1 on</source>
        <translation>所有 %1 运行于</translation>
    </message>
    <message>
        <source>Default (no override)</source>
        <translation>默认（无覆盖）</translation>
    </message>
    <message>
        <source>&amp;SSH connection of the board...</source>
        <translation>开发板的 &amp;SSH 连接...</translation>
    </message>
    <message>
        <source>Run history</source>
        <translation>运行历史</translation>
    </message>
    <message>
        <source>Opening %1...</source>
        <translation>正在打开 %1...</translation>
    </message>
    <message>
        <source>superseded by another model</source>
        <translation>已被另一个模型取代</translation>
    </message>
    <message>
        <source>&amp;User guide</source>
        <translation>用户指南(&amp;U)</translation>
    </message>
    <message>
        <source>&amp;Keyboard shortcuts</source>
        <translation>键盘快捷键(&amp;K)</translation>
    </message>
    <message>
        <source>%1 has inputs of free size: choose their shapes</source>
        <translation>%1 的输入大小不固定：请选择其形状</translation>
    </message>
    <message>
        <source>%1 was not opened: its input shapes are needed</source>
        <translation>%1 未打开：需要其输入形状</translation>
    </message>
    <message>
        <source>Rewrites</source>
        <translation>重写</translation>
    </message>
    <message>
        <source>&amp;Welcome page</source>
        <translation>欢迎页(&amp;W)</translation>
    </message>
    <message>
        <source>Module %1</source>
        <translation>模块 %1</translation>
    </message>
    <message>
        <source>%1 is a run of %2, which no longer exists: its charts are shown, not on the graph.</source>
        <translation>%1 是 %2 的运行，该模型已不存在：只显示其图表，不显示在图上。</translation>
    </message>
    <message>
        <source>Jobs are running</source>
        <translation>有任务正在运行</translation>
    </message>
    <message numerus="yes">
        <source>%n job(s) are still running or queued. Cancel them and quit?</source>
        <translation>
            <numerusform>还有 %n 个任务正在运行或排队。取消它们并退出吗？</numerusform>
        </translation>
    </message>
    <message>
        <source>Cancel jobs and quit</source>
        <translation>取消任务并退出</translation>
    </message>
    <message>
        <source>Keep working</source>
        <translation>继续工作</translation>
    </message>
    <message>
        <source>Cancelling the jobs...</source>
        <translation>正在取消任务...</translation>
    </message>
    <message>
        <source>Opening %1 with the input shapes chosen last time</source>
        <translation>使用上次选择的输入形状打开 %1</translation>
    </message>
    <message>
        <source>Farm</source>
        <translation>设备农场</translation>
    </message>
</context>
<context>
    <name>embark::ui::MemoryChart</name>
    <message>
        <source>Memory plan</source>
        <translation>内存规划</translation>
    </message>
    <message>
        <source>schedule step</source>
        <translation>调度步骤</translation>
    </message>
    <message>
        <source>arena offset (KiB)</source>
        <translation>内存池偏移（KiB）</translation>
    </message>
    <message>
        <source>lower bound %1 KiB</source>
        <translation>下界 %1 KiB</translation>
    </message>
    <message>
        <source>Open a model to see where its activations live in the arena over time.</source>
        <translation>打开模型以查看其激活值随时间在内存区中的位置。</translation>
    </message>
    <message>
        <source>live</source>
        <translation>存活</translation>
    </message>
    <message>
        <source>arena %1 KiB (optimal)</source>
        <translation>内存区 %1 KiB（最优）</translation>
    </message>
    <message>
        <source>arena %1 KiB (+%2%)</source>
        <translation>内存区 %1 KiB (+%2%)</translation>
    </message>
    <message>
        <source>&lt;b&gt;buffer %1&lt;/b&gt;: %2&lt;br&gt;%3 bytes at offset %4 (%5 KiB)&lt;br&gt;live from step %6 (%7)&lt;br&gt;to step %8 (%9)</source>
        <translation>&lt;b&gt;缓冲区 %1&lt;/b&gt;：%2&lt;br&gt;%3 字节，偏移 %4 (%5 KiB)&lt;br&gt;从第 %6 步 (%7)&lt;br&gt;到第 %8 步 (%9) 存活</translation>
    </message>
</context>
<context>
    <name>embark::ui::PlanDiffDialog</name>
    <message>
        <source>added</source>
        <translation>新增</translation>
    </message>
    <message>
        <source>removed</source>
        <translation>删除</translation>
    </message>
    <message>
        <source>fused differently</source>
        <translation>融合方式不同</translation>
    </message>
    <message>
        <source>re-assigned (library or layout)</source>
        <translation>重新分配（库或布局）</translation>
    </message>
    <message>
        <source>rewritten (other op)</source>
        <translation>改写（其他算子）</translation>
    </message>
    <message>
        <source>unchanged</source>
        <translation>未更改</translation>
    </message>
    <message>
        <source>Run #%1: %2 on %3 (%4)</source>
        <translation>运行 #%1：%2，在 %3 上（%4）</translation>
    </message>
    <message>
        <source>Plans of runs #%1 and #%2</source>
        <translation>运行 #%1 和 #%2 的计划</translation>
    </message>
    <message>
        <source>Select a node to see what changed.</source>
        <translation>选择一个节点以查看更改内容。</translation>
    </message>
    <message>
        <source>Baseline %1</source>
        <translation>基线 %1</translation>
    </message>
    <message>
        <source>Run #%1&apos;s plan cannot be drawn: %2</source>
        <translation>无法绘制运行 #%1 的计划：%2</translation>
    </message>
    <message>
        <source>The plans of runs #%1 and #%2 are the same: every node runs with the same library and layout.</source>
        <translation>运行 #%1 和 #%2 的计划相同：每个节点都使用相同的库和布局运行。</translation>
    </message>
    <message>
        <source>Run #%2 against run #%1 (baseline): %3 re-assigned to another library or layout, %4 fused differently (%5 in #%1, %6 in #%2), %7 added, %8 removed, %9 rewritten.</source>
        <translation>运行 #%2 相对于运行 #%1（基线）：%3 个重新分配到其他库或布局，%4 个融合方式不同（#%1 中 %5 个，#%2 中 %6 个），新增 %7 个，删除 %8 个，改写 %9 个。</translation>
    </message>
    <message>
        <source>Changes to the baseline&apos;s nodes</source>
        <translation>基线节点的更改</translation>
    </message>
    <message>
        <source>Changes from the baseline</source>
        <translation>相对基线的更改</translation>
    </message>
    <message>
        <source>%1 (run #%2): %3</source>
        <translation>%1（运行 #%2）：%3</translation>
    </message>
    <message>
        <source>; run #%1: %2 %3, run #%4: %5 %6</source>
        <translation>；运行 #%1：%2 %3，运行 #%4：%5 %6</translation>
    </message>
    <message>
        <source>; in run #%1: %2</source>
        <translation>；在运行 #%1 中：%2</translation>
    </message>
</context>
<context>
    <name>embark::ui::PropertiesPanel</name>
    <message>
        <source>min %1  max %2  mean %3  std %4</source>
        <translation>最小 %1  最大 %2  均值 %3  标准差 %4</translation>
    </message>
    <message>
        <source>Property</source>
        <translation>属性</translation>
    </message>
    <message>
        <source>Value</source>
        <translation>值</translation>
    </message>
    <message>
        <source>Node</source>
        <translation>节点</translation>
    </message>
    <message>
        <source>Name</source>
        <translation>名称</translation>
    </message>
    <message>
        <source>Op</source>
        <translation>算子</translation>
    </message>
    <message>
        <source>Category</source>
        <translation>类别</translation>
    </message>
    <message>
        <source>Stage</source>
        <translation>阶段</translation>
    </message>
    <message>
        <source>MACs</source>
        <translation>乘加次数</translation>
    </message>
    <message>
        <source>Attributes</source>
        <translation>属性</translation>
    </message>
    <message>
        <source>Inputs</source>
        <translation>输入</translation>
    </message>
    <message>
        <source>%1  (constant)</source>
        <translation>%1（常量）</translation>
    </message>
    <message>
        <source>Weight statistics</source>
        <translation>权重统计</translation>
    </message>
    <message>
        <source>Outputs</source>
        <translation>输出</translation>
    </message>
    <message>
        <source>Kernel library</source>
        <translation>内核库</translation>
    </message>
    <message>
        <source>Library</source>
        <translation>库</translation>
    </message>
    <message>
        <source>Why</source>
        <translation>原因</translation>
    </message>
    <message>
        <source>Provenance (original ONNX nodes)</source>
        <translation>来源（原始 ONNX 节点）</translation>
    </message>
    <message>
        <source>(none recorded)</source>
        <translation>（未记录）</translation>
    </message>
    <message>
        <source>%1  (of the fused node %2)</source>
        <translation>%1（融合节点 %2 的）</translation>
    </message>
    <message>
        <source>(no figure for this node)</source>
        <translation>（该节点无数据）</translation>
    </message>
    <message>
        <source>Layer figures</source>
        <translation>层数据</translation>
    </message>
    <message>
        <source>ONNX Runtime partition</source>
        <translation>ONNX Runtime 分区</translation>
    </message>
    <message>
        <source>Ran in</source>
        <translation>运行于</translation>
    </message>
    <message>
        <source>Subgraph model: %1</source>
        <translation>子图模型：%1</translation>
    </message>
    <message>
        <source>Subgraphs in the run</source>
        <translation>本次运行的子图数</translation>
    </message>
    <message>
        <source>Folded module</source>
        <translation>折叠的模块</translation>
    </message>
    <message>
        <source>Nodes</source>
        <translation>节点</translation>
    </message>
    <message>
        <source>Ops</source>
        <translation>算子</translation>
    </message>
    <message>
        <source>Nodes in the module (expand it from its menu)</source>
        <translation>模块中的节点（可从其菜单展开）</translation>
    </message>
    <message>
        <source>Inside</source>
        <translation>位于</translation>
    </message>
    <message>
        <source>Bodies</source>
        <translation>子图</translation>
    </message>
    <message>
        <source>%1 (double-click the node to open)</source>
        <translation>%1（双击节点打开）</translation>
    </message>
    <message>
        <source>%1 instructions</source>
        <translation>%1 条指令</translation>
    </message>
    <message>
        <source>%1 ns</source>
        <translation>%1 纳秒</translation>
    </message>
    <message>
        <source>%1 µs</source>
        <translation>%1 微秒</translation>
    </message>
    <message>
        <source>%1 ms</source>
        <translation>%1 毫秒</translation>
    </message>
    <message>
        <source>Measurement (library auto)</source>
        <translation>测量（自动选择库）</translation>
    </message>
    <message>
        <source>Chosen</source>
        <translation>选中</translation>
    </message>
    <message>
        <source>not a candidate: %1</source>
        <translation>非候选：%1</translation>
    </message>
    <message>
        <source>cached</source>
        <translation>缓存</translation>
    </message>
    <message>
        <source>measured</source>
        <translation>实测</translation>
    </message>
    <message>
        <source>%1 + %2 layout conversion = %3 (%4)</source>
        <translation>%1 + %2 布局转换 = %3（%4）</translation>
    </message>
    <message>
        <source>%1 (%2)</source>
        <translation>%1（%2）</translation>
    </message>
    <message>
        <source>Measured on</source>
        <translation>测量于</translation>
    </message>
    <message>
        <source>%1, %2</source>
        <translation>%1，%2</translation>
    </message>
    <message>
        <source>wall clock</source>
        <translation>挂钟时间</translation>
    </message>
    <message>
        <source>retired instructions</source>
        <translation>退休指令数</translation>
    </message>
    <message>
        <source>Signature</source>
        <translation>签名</translation>
    </message>
</context>
<context>
    <name>embark::ui::QuantErrorChart</name>
    <message>
        <source>Per-layer quantization error</source>
        <translation>逐层量化误差</translation>
    </message>
    <message>
        <source>Open quantized model</source>
        <translation>打开量化模型</translation>
    </message>
    <message>
        <source>Open the quantized model as the studio&apos;s model (to inspect or export it)</source>
        <translation>将量化模型作为工作室的当前模型打开（以便检查或导出）</translation>
    </message>
    <message>
        <source>SNR against the float model (dB, higher is better)</source>
        <translation>相对浮点模型的信噪比（dB，越高越好）</translation>
    </message>
    <message>
        <source>Quantize the model (Model &gt; Quantize...) to see each layer&apos;s quantization error.</source>
        <translation>量化模型（模型 &gt; 量化…）以查看每层的量化误差。</translation>
    </message>
    <message>
        <source>Select &apos;%1&apos; in the graph</source>
        <translation>在图中选中“%1”</translation>
    </message>
    <message>
        <source>Keep &apos;%1&apos; in float and quantize again</source>
        <translation>将“%1”保留为浮点并重新量化</translation>
    </message>
    <message>
        <source>&lt;br&gt;&lt;i&gt;%1&lt;/i&gt;: SNR %2 dB, cosine %3, max error %4%5</source>
        <translation>&lt;br&gt;&lt;i&gt;%1&lt;/i&gt;：信噪比 %2 dB，余弦 %3，最大误差 %4%5</translation>
    </message>
    <message>
        <source> (kept in float)</source>
        <translation> (保留为浮点)</translation>
    </message>
    <message>
        <source>&lt;br&gt;&lt;b&gt;lowest SNR&lt;/b&gt;</source>
        <translation>&lt;br&gt;&lt;b&gt;最低信噪比&lt;/b&gt;</translation>
    </message>
    <message>
        <source>&lt;br&gt;&lt;b&gt;SNR first falls steeply here&lt;/b&gt; (more than %1 dB below its inputs&apos;)</source>
        <translation>&lt;br&gt;&lt;b&gt;信噪比在此处首次骤降&lt;/b&gt;（比其输入低 %1 dB 以上）</translation>
    </message>
    <message>
        <source>&lt;br&gt;&lt;i&gt;click to select it in the graph; right-click to keep it in float&lt;/i&gt;</source>
        <translation>&lt;br&gt;&lt;i&gt;单击以在图中选中；右键单击以保留为浮点&lt;/i&gt;</translation>
    </message>
    <message>
        <source>lowest SNR: %1</source>
        <translation>最低信噪比：%1</translation>
    </message>
    <message>
        <source>, float</source>
        <translation>，浮点</translation>
    </message>
    <message>
        <source>, SNR drop starts here</source>
        <translation>，信噪比从此处开始下降</translation>
    </message>
    <message numerus="yes">
        <source>%n quantized layer(s); lowest SNR %1 dB at %2</source>
        <translation>
            <numerusform>%n 个量化层；最低信噪比 %1 dB，位于 %2</numerusform>
        </translation>
    </message>
    <message>
        <source>Lowest SNR %1 dB before, %2 dB now (at %3)</source>
        <translation>最低信噪比：之前 %1 dB，现在 %2 dB（位于 %3）</translation>
    </message>
</context>
<context>
    <name>embark::ui::QuantizeDialog</name>
    <message>
        <source>Quantize %1</source>
        <translation>量化 %1</translation>
    </message>
    <message>
        <source>test_data_set_N folders (input_K.pb), a folder of them, or .npy/.pb files and PNG/JPEG images (one sample each, folders searched with their subfolders)</source>
        <translation>test_data_set_N 文件夹（input_K.pb）、包含它们的文件夹，或 .npy/.pb 文件和 PNG/JPEG 图像（每个文件一个样本；搜索文件夹时包括其子文件夹）</translation>
    </message>
    <message>
        <source>Add folder...</source>
        <translation>添加文件夹...</translation>
    </message>
    <message>
        <source>Add files...</source>
        <translation>添加文件...</translation>
    </message>
    <message>
        <source>Remove</source>
        <translation>移除</translation>
    </message>
    <message>
        <source>minmax (the full range seen)</source>
        <translation>minmax（观测到的完整范围）</translation>
    </message>
    <message>
        <source>percentile (cut the extreme values)</source>
        <translation>percentile（截去极端值）</translation>
    </message>
    <message>
        <source>entropy (KL divergence, as TensorRT)</source>
        <translation>entropy（KL 散度，与 TensorRT 相同）</translation>
    </message>
    <message>
        <source>Share of the values the percentile method keeps</source>
        <translation>percentile 方法保留的数值比例</translation>
    </message>
    <message>
        <source>e.g. Gemm, MatMul</source>
        <translation>例如 Gemm, MatMul</translation>
    </message>
    <message>
        <source>ONNX op types whose nodes stay in float (comma-separated)</source>
        <translation>其节点保持浮点的 ONNX 算子类型（以逗号分隔）</translation>
    </message>
    <message>
        <source>node names, comma-separated</source>
        <translation>节点名称，以逗号分隔</translation>
    </message>
    <message>
        <source>Nodes that stay in float; right-click a node in the graph for &apos;Keep in float&apos;</source>
        <translation>保持浮点的节点；在图中右键单击节点可选择“保留为浮点”</translation>
    </message>
    <message>
        <source>Browse...</source>
        <translation>浏览...</translation>
    </message>
    <message>
        <source>WxH or N</source>
        <translation>WxH 或 N</translation>
    </message>
    <message>
        <source>Images (PNG, JPEG) only. Resize: WxH stretches, N scales the short side to N and crops the centre. Pixels are scaled to [0,1], then (x - mean) / std, one value or one per channel (e.g. 0.485,0.456,0.406 and 0.229,0.224,0.225). Layout: the model input&apos;s.</source>
        <translation>仅适用于图像（PNG、JPEG）。缩放：WxH 直接拉伸，N 将短边缩放到 N 并居中裁剪。像素先缩放到 [0,1]，再计算 (x - 均值) / 标准差，可填一个值或每个通道一个值（例如 0.485,0.456,0.406 和 0.229,0.224,0.225）。布局：与模型输入相同。</translation>
    </message>
    <message>
        <source>resize</source>
        <translation>缩放</translation>
    </message>
    <message>
        <source>mean</source>
        <translation>均值</translation>
    </message>
    <message>
        <source>std</source>
        <translation>标准差</translation>
    </message>
    <message>
        <source>Quantize</source>
        <translation>量化</translation>
    </message>
    <message>
        <source>Calibration data:</source>
        <translation>校准数据：</translation>
    </message>
    <message>
        <source>Images:</source>
        <translation>图像：</translation>
    </message>
    <message>
        <source>Method:</source>
        <translation>方法：</translation>
    </message>
    <message>
        <source>Percentile:</source>
        <translation>百分位：</translation>
    </message>
    <message>
        <source>Keep op types in float:</source>
        <translation>保持浮点的算子类型：</translation>
    </message>
    <message>
        <source>Keep nodes in float:</source>
        <translation>保持浮点的节点：</translation>
    </message>
    <message>
        <source>Output model:</source>
        <translation>输出模型：</translation>
    </message>
    <message>
        <source>Calibration folder</source>
        <translation>校准文件夹</translation>
    </message>
    <message>
        <source>Calibration tensors</source>
        <translation>校准张量</translation>
    </message>
    <message>
        <source>Tensors and images (*.npy *.pb *.png *.jpg *.jpeg)</source>
        <translation>张量和图像 (*.npy *.pb *.png *.jpg *.jpeg)</translation>
    </message>
    <message>
        <source>Resize &apos;%1&apos;: give WxH (e.g. 224x224) or N (e.g. 256), positive integers.</source>
        <translation>缩放“%1”：请填写 WxH（例如 224x224）或 N（例如 256），均为正整数。</translation>
    </message>
    <message>
        <source>Mean &apos;%1&apos;: give one number or one per channel, e.g. 0.485,0.456,0.406.</source>
        <translation>均值“%1”：请填写一个数，或每个通道一个数，例如 0.485,0.456,0.406。</translation>
    </message>
    <message>
        <source>Std &apos;%1&apos;: give one number or one per channel, e.g. 0.229,0.224,0.225.</source>
        <translation>标准差“%1”：请填写一个数，或每个通道一个数，例如 0.229,0.224,0.225。</translation>
    </message>
    <message>
        <source>Std values must be greater than 0.</source>
        <translation>标准差必须大于 0。</translation>
    </message>
    <message>
        <source>Quantized model</source>
        <translation>量化模型</translation>
    </message>
    <message>
        <source>ONNX models (*.onnx)</source>
        <translation>ONNX 模型 (*.onnx)</translation>
    </message>
    <message>
        <source>Add calibration data: a test_data_set_N folder, a folder of them, .npy files or images. Quantization needs sample inputs to measure each activation&apos;s range.</source>
        <translation>请添加校准数据：test_data_set_N 文件夹、包含它们的文件夹、.npy 文件或图像。量化需要样本输入来测量每个激活值的范围。</translation>
    </message>
    <message>
        <source>The calibration source %1 does not exist.</source>
        <translation>校准数据源 %1 不存在。</translation>
    </message>
    <message>
        <source>&apos;%1&apos; is not an ONNX op type Embark knows (e.g. Conv, Gemm).</source>
        <translation>“%1”不是 Embark 已知的 ONNX 算子类型（例如 Conv、Gemm）。</translation>
    </message>
    <message>
        <source>The model has no node named &apos;%1&apos;.</source>
        <translation>模型中没有名为“%1”的节点。</translation>
    </message>
    <message>
        <source>Choose the output file of the quantized model.</source>
        <translation>请选择量化模型的输出文件。</translation>
    </message>
    <message>
        <source>The output would replace the float model: choose another file.</source>
        <translation>输出将覆盖浮点模型：请选择其他文件。</translation>
    </message>
    <message>
        <source>The folder of %1 does not exist.</source>
        <translation>%1 所在的文件夹不存在。</translation>
    </message>
</context>
<context>
    <name>embark::ui::RunBanner</name>
    <message>
        <source>Back to the live model</source>
        <translation>返回当前模型</translation>
    </message>
    <message>
        <source>Empty the charts and show the open model&apos;s own colours again</source>
        <translation>清空图表并恢复当前模型的颜色</translation>
    </message>
    <message>
        <source>Charts and colours show %1</source>
        <translation>图表和颜色显示 %1</translation>
    </message>
    <message>
        <source>Charts show %1, a model that is not open (the graph keeps its own colours)</source>
        <translation>图表显示 %1，该模型未打开（图保持自己的颜色）</translation>
    </message>
</context>
<context>
    <name>embark::ui::RunComparisonChart</name>
    <message>
        <source>Run comparison</source>
        <translation>运行比较</translation>
    </message>
    <message>
        <source>Total latency (mean, 95% CI)</source>
        <translation>总延迟（均值，95% 置信区间）</translation>
    </message>
    <message>
        <source>Per-layer delta against the first run</source>
        <translation>相对首次运行的逐层差异</translation>
    </message>
    <message>
        <source>Show:</source>
        <translation>显示：</translation>
    </message>
    <message>
        <source>latency (ms)</source>
        <translation>延迟（毫秒）</translation>
    </message>
    <message>
        <source>Select two or more runs in the Run history (Alt+4) and choose Compare.</source>
        <translation>在运行历史 (Alt+4) 中选择两次或更多运行，然后选择“比较”。</translation>
    </message>
    <message>
        <source>Warning: these runs are of different models (%1); per-layer deltas only match layers by name.</source>
        <translation>警告：这些运行属于不同的模型 (%1)；逐层差异仅按名称匹配层。</translation>
    </message>
    <message>
        <source> (baseline)</source>
        <translation>（基准）</translation>
    </message>
    <message>
        <source>time difference against %1 (ms)</source>
        <translation>相对 %1 的时间差 (毫秒)</translation>
    </message>
    <message>
        <source>%1 minus %2</source>
        <translation>%1 减 %2</translation>
    </message>
    <message numerus="yes">
        <source>&lt;b&gt;%1&lt;/b&gt;%2&lt;br&gt;mean %3 ms ± %4 ms (95% CI) over %n iteration(s)</source>
        <translation>
            <numerusform>&lt;b&gt;%1&lt;/b&gt;%2&lt;br&gt;平均 %3 毫秒 ± %4 毫秒（95% 置信区间），%n 次迭代</numerusform>
        </translation>
    </message>
    <message>
        <source>not in this run</source>
        <translation>不在此次运行中</translation>
    </message>
    <message>
        <source>%1 ms (%2)</source>
        <translation>%1 毫秒 (%2)</translation>
    </message>
    <message>
        <source>, %1%2 ms</source>
        <translation>，%1%2 毫秒</translation>
    </message>
    <message>
        <source>%1× faster</source>
        <translation>快 %1×</translation>
    </message>
    <message>
        <source>%1× slower</source>
        <translation>慢 %1×</translation>
    </message>
</context>
<context>
    <name>embark::ui::RunHistoryPanel</name>
    <message>
        <source>part of the model path, or its SHA-256</source>
        <translation>模型路径的一部分，或其 SHA-256</translation>
    </message>
    <message>
        <source>From:</source>
        <translation>从：</translation>
    </message>
    <message>
        <source>To:</source>
        <translation>到：</translation>
    </message>
    <message>
        <source>Date</source>
        <translation>日期</translation>
    </message>
    <message>
        <source>Model</source>
        <translation>模型</translation>
    </message>
    <message>
        <source>Board</source>
        <translation>开发板</translation>
    </message>
    <message>
        <source>Library</source>
        <translation>库</translation>
    </message>
    <message>
        <source>Threads</source>
        <translation>线程</translation>
    </message>
    <message>
        <source>Median (ms)</source>
        <translation>中位数（毫秒）</translation>
    </message>
    <message>
        <source>Status</source>
        <translation>状态</translation>
    </message>
    <message>
        <source>&amp;Refresh</source>
        <translation>刷新(&amp;R)</translation>
    </message>
    <message>
        <source>&amp;Open</source>
        <translation>打开(&amp;O)</translation>
    </message>
    <message>
        <source>Show the selected run&apos;s timings, accuracy and latency distribution</source>
        <translation>显示所选运行的耗时、精度和延迟分布</translation>
    </message>
    <message>
        <source>&amp;Compare</source>
        <translation>比较(&amp;C)</translation>
    </message>
    <message>
        <source>Compare two or more selected runs: totals with confidence intervals and per-layer deltas</source>
        <translation>比较两个或更多所选运行：带置信区间的总耗时和逐层差异</translation>
    </message>
    <message>
        <source>&amp;Delete...</source>
        <translation>删除(&amp;D)...</translation>
    </message>
    <message>
        <source>Model:</source>
        <translation>模型：</translation>
    </message>
    <message>
        <source>Board:</source>
        <translation>开发板：</translation>
    </message>
    <message>
        <source>Library:</source>
        <translation>库：</translation>
    </message>
    <message>
        <source>Cannot open the run history: %1</source>
        <translation>无法打开运行历史：%1</translation>
    </message>
    <message>
        <source>All boards</source>
        <translation>所有开发板</translation>
    </message>
    <message>
        <source>All libraries</source>
        <translation>所有库</translation>
    </message>
    <message>
        <source>Cannot read the run history: %1</source>
        <translation>无法读取运行历史：%1</translation>
    </message>
    <message>
        <source>ok</source>
        <translation>成功</translation>
    </message>
    <message>
        <source>failed</source>
        <translation>失败</translation>
    </message>
    <message numerus="yes">
        <source>%n run(s) in %1</source>
        <translation>
            <numerusform>%1 中有 %n 次运行</numerusform>
        </translation>
    </message>
    <message>
        <source>Cannot open run #%1: %2</source>
        <translation>无法打开运行 #%1：%2</translation>
    </message>
    <message>
        <source>Showing %1</source>
        <translation>正在显示 %1</translation>
    </message>
    <message>
        <source>a real difference (95% intervals do not overlap)</source>
        <translation>确有差异（95% 置信区间不重叠）</translation>
    </message>
    <message>
        <source>within noise (95% intervals overlap)</source>
        <translation>在噪声范围内（95% 置信区间重叠）</translation>
    </message>
    <message numerus="yes">
        <source>Comparing %n run(s)</source>
        <translation>
            <numerusform>正在比较 %n 次运行</numerusform>
        </translation>
    </message>
    <message>
        <source>Delete runs</source>
        <translation>删除运行</translation>
    </message>
    <message numerus="yes">
        <source>Delete %n run(s) from %1? This cannot be undone.</source>
        <translation>
            <numerusform>从 %1 中删除 %n 次运行？此操作无法撤销。</numerusform>
        </translation>
    </message>
    <message>
        <source>Cannot delete run #%1: %2</source>
        <translation>无法删除运行 #%1：%2</translation>
    </message>
    <message>
        <source>Run</source>
        <translation>运行</translation>
    </message>
    <message>
        <source>Run id: embark-cli runs show %1</source>
        <translation>运行编号：embark-cli runs show %1</translation>
    </message>
    <message>
        <source>Warning: these runs are of different models (%1): their timings are not comparable.</source>
        <translation>警告：这些运行属于不同的模型 (%1)：其耗时不可比较。</translation>
    </message>
    <message>
        <source>#%1 against #%2 (baseline): median #%2 %3 ms -&gt; #%1 %4 ms (x%5), %6</source>
        <translation>#%1 对比 #%2（基准）：中位数 #%2 %3 毫秒 -&gt; #%1 %4 毫秒 (x%5)，%6</translation>
    </message>
    <message>
        <source>Run id, as embark-cli runs show ID names it</source>
        <translation>运行编号，即 embark-cli runs show ID 中的编号</translation>
    </message>
    <message>
        <source>Median latency in milliseconds</source>
        <translation>延迟中位数（毫秒）</translation>
    </message>
    <message>
        <source>Export &amp;report...</source>
        <translation>导出报告(&amp;R)...</translation>
    </message>
    <message>
        <source>Write the selected run&apos;s report (or two runs&apos; comparison) as one HTML or PDF file: board, latency, plan, slowest layers, accuracy and charts</source>
        <translation>将所选运行的报告（或两次运行的比较）写成一个 HTML 或 PDF 文件：开发板、延迟、部署计划、最慢的层、精度和图表</translation>
    </message>
    <message>
        <source>Select one run, or two runs to compare, for a report.</source>
        <translation>请选择一次运行，或选择两次运行进行比较，以生成报告。</translation>
    </message>
    <message>
        <source>Export report</source>
        <translation>导出报告</translation>
    </message>
    <message>
        <source>HTML report (*.html);;PDF report (*.pdf)</source>
        <translation>HTML 报告 (*.html);;PDF 报告 (*.pdf)</translation>
    </message>
    <message>
        <source>No report written: %1</source>
        <translation>未写出报告：%1</translation>
    </message>
    <message>
        <source>Report written to %1</source>
        <translation>报告已写入 %1</translation>
    </message>
    <message>
        <source>Embark export</source>
        <translation>Embark 导出</translation>
    </message>
    <message>
        <source>ONNX Runtime</source>
        <translation>ONNX Runtime</translation>
    </message>
    <message>
        <source>ONNX Runtime (ep %1)</source>
        <translation>ONNX Runtime（EP %1）</translation>
    </message>
    <message>
        <source>Diff &amp;plans</source>
        <translation>比较计划(&amp;P)</translation>
    </message>
    <message>
        <source>Show two selected runs&apos; plans side by side: nodes added, removed, fused differently or re-assigned to another kernel library or layout</source>
        <translation>并排显示所选两次运行的计划：新增、删除、融合方式不同或重新分配到其他内核库或布局的节点</translation>
    </message>
    <message>
        <source>Runtime: #%1 %2, #%3 %4</source>
        <translation>运行时：#%1 %2，#%3 %4</translation>
    </message>
    <message>
        <source>%1 %2 -&gt; %3</source>
        <translation>%1 %2 -&gt; %3</translation>
    </message>
    <message>
        <source>(not set)</source>
        <translation>（未设置）</translation>
    </message>
    <message>
        <source>EP options that differ, #%1 -&gt; #%2: %3</source>
        <translation>不同的 EP 选项，#%1 -&gt; #%2：%3</translation>
    </message>
    <message>
        <source>EP options of #%1 and #%2: the same</source>
        <translation>#%1 与 #%2 的 EP 选项：相同</translation>
    </message>
    <message>
        <source>Select two runs to diff their plans.</source>
        <translation>请选择两次运行以比较其计划。</translation>
    </message>
    <message>
        <source>Cannot read the plan of run #%1: %2</source>
        <translation>无法读取运行 #%1 的计划：%2</translation>
    </message>
    <message>
        <source>Run #%1 has no stored plan (ONNX Runtime runs, and runs stored by an older Embark, have none): benchmark the export again to diff its plan.</source>
        <translation>运行 #%1 没有保存的计划（ONNX Runtime 运行以及旧版 Embark 保存的运行都没有）：请重新对导出进行基准测试以比较其计划。</translation>
    </message>
    <message>
        <source>cancelled</source>
        <translation>已取消</translation>
    </message>
    <message>
        <source>%1 %2: %3</source>
        <translation>%1 %2：%3</translation>
    </message>
    <message>
        <source>LAVA &amp;job</source>
        <translation>LAVA 作业(&amp;J)</translation>
    </message>
    <message>
        <source>Open the LAVA job page of the selected run on a farm board in the browser</source>
        <translation>在浏览器中打开所选设备农场运行的 LAVA 作业页面</translation>
    </message>
    <message>
        <source>More</source>
        <translation>更多</translation>
    </message>
    <message>
        <source>Export report, LAVA job, Delete</source>
        <translation>导出报告、LAVA 作业、删除</translation>
    </message>
    <message>
        <source>Cannot open %1: no browser is set up to open web pages</source>
        <translation>无法打开 %1：未设置用于打开网页的浏览器</translation>
    </message>
</context>
<context>
    <name>embark::ui::SecretPrompt</name>
    <message>
        <source>SSH authentication</source>
        <translation>SSH 认证</translation>
    </message>
    <message>
        <source>Embark does not store it. To avoid this question, install your public key on the board (ssh-copy-id).</source>
        <translation>Embark 不会保存它。若不想再被询问，请在开发板上安装您的公钥（ssh-copy-id）。</translation>
    </message>
</context>
<context>
    <name>embark::ui::ShortcutsDialog</name>
    <message>
        <source>Keyboard shortcuts</source>
        <translation>键盘快捷键</translation>
    </message>
    <message>
        <source>Graph</source>
        <translation>图</translation>
    </message>
    <message>
        <source>Zoom at the cursor</source>
        <translation>在光标处缩放</translation>
    </message>
    <message>
        <source>Mouse wheel</source>
        <translation>鼠标滚轮</translation>
    </message>
    <message>
        <source>Pan</source>
        <translation>平移</translation>
    </message>
    <message>
        <source>Drag the background</source>
        <translation>拖动背景</translation>
    </message>
    <message>
        <source>Next match of the search</source>
        <translation>下一个搜索匹配</translation>
    </message>
    <message>
        <source>Enter in the find box</source>
        <translation>在搜索框中按 Enter</translation>
    </message>
    <message>
        <source>Run a node on another kernel library</source>
        <translation>在另一个内核库上运行节点</translation>
    </message>
    <message>
        <source>Right-click the node</source>
        <translation>右键单击节点</translation>
    </message>
    <message>
        <source>Menu</source>
        <translation>菜单</translation>
    </message>
    <message>
        <source>Action</source>
        <translation>操作</translation>
    </message>
    <message>
        <source>Shortcut</source>
        <translation>快捷键</translation>
    </message>
</context>
<context>
    <name>embark::ui::SourceViewer</name>
    <message>
        <source>Source</source>
        <translation>源代码</translation>
    </message>
    <message>
        <source>Cannot read &apos;%1&apos;: %2</source>
        <translation>无法读取“%1”：%2</translation>
    </message>
    <message>
        <source>%1:%2 (read-only)</source>
        <translation>%1:%2（只读）</translation>
    </message>
    <message>
        <source>%1 has no line %2 (it has %3).</source>
        <translation>%1 没有第 %2 行（共 %3 行）。</translation>
    </message>
</context>
<context>
    <name>embark::ui::SshSettingsDialog</name>
    <message>
        <source>SSH connection of %1</source>
        <translation>%1 的 SSH 连接</translation>
    </message>
    <message>
        <source>host name, address or ~/.ssh/config alias</source>
        <translation>主机名、地址或 ~/.ssh/config 别名</translation>
    </message>
    <message>
        <source>from ~/.ssh/config, else your user name</source>
        <translation>取自 ~/.ssh/config，否则为您的用户名</translation>
    </message>
    <message>
        <source>from ~/.ssh/config, else 22</source>
        <translation>取自 ~/.ssh/config，否则为 22</translation>
    </message>
    <message>
        <source>SSH agent and default keys</source>
        <translation>SSH 代理和默认密钥</translation>
    </message>
    <message>
        <source>Browse...</source>
        <translation>浏览...</translation>
    </message>
    <message>
        <source>Test connection</source>
        <translation>测试连接</translation>
    </message>
    <message>
        <source>This board runs locally now. Saving makes it run over SSH (its exec prefix, if any, is kept and runs on the remote machine).</source>
        <translation>此开发板目前在本地运行。保存后将改为通过 SSH 运行（如有执行前缀，会保留并在远程机器上运行）。</translation>
    </message>
    <message>
        <source>Host:</source>
        <translation>主机：</translation>
    </message>
    <message>
        <source>User:</source>
        <translation>用户：</translation>
    </message>
    <message>
        <source>Port:</source>
        <translation>端口：</translation>
    </message>
    <message>
        <source>Key file:</source>
        <translation>密钥文件：</translation>
    </message>
    <message>
        <source>Private key</source>
        <translation>私钥</translation>
    </message>
    <message>
        <source>Host: enter a host name, an address or an ~/.ssh/config alias.</source>
        <translation>主机：请输入主机名、地址或 ~/.ssh/config 别名。</translation>
    </message>
    <message>
        <source>Connecting to %1...</source>
        <translation>正在连接 %1...</translation>
    </message>
    <message>
        <source>Connected: %1</source>
        <translation>已连接：%1</translation>
    </message>
    <message>
        <source>Connection failed: %1</source>
        <translation>连接失败：%1</translation>
    </message>
</context>
<context>
    <name>embark::ui::StagesView</name>
    <message>
        <source>Before:</source>
        <translation>之前：</translation>
    </message>
    <message>
        <source>After:</source>
        <translation>之后：</translation>
    </message>
    <message>
        <source>Rewrites made by the &quot;after&quot; stage:</source>
        <translation>“之后”阶段所做的改写：</translation>
    </message>
    <message>
        <source>%1 (%2 nodes, %3 rewrites)</source>
        <translation>%1（%2 个节点，%3 次改写）</translation>
    </message>
    <message>
        <source>(no rewrites in this stage)</source>
        <translation>（此阶段无改写）</translation>
    </message>
    <message>
        <source>Click a rewrite to highlight its nodes in both graphs</source>
        <translation>单击某个改写以在两个图中突出显示其节点</translation>
    </message>
    <message>
        <source>Colour: op category / library</source>
        <translation>颜色：算子类别 / 库</translation>
    </message>
    <message>
        <source>Colour: layer time</source>
        <translation>颜色：每层耗时</translation>
    </message>
    <message>
        <source>Colour: layer error (max_rel)</source>
        <translation>颜色：每层误差 (max_rel)</translation>
    </message>
    <message>
        <source>Colour: memory in use</source>
        <translation>颜色：占用内存</translation>
    </message>
    <message>
        <source>Colour: changes between the stages</source>
        <translation>颜色：阶段之间的变化</translation>
    </message>
    <message>
        <source>time (ms)</source>
        <translation>耗时 (ms)</translation>
    </message>
    <message>
        <source>error (max_rel)</source>
        <translation>误差 (max_rel)</translation>
    </message>
    <message>
        <source>memory in use</source>
        <translation>占用内存</translation>
    </message>
    <message>
        <source>No graph to fold</source>
        <translation>没有可折叠的图</translation>
    </message>
    <message>
        <source>Fold &apos;%1&apos;</source>
        <translation>折叠“%1”</translation>
    </message>
    <message>
        <source>Expand all modules</source>
        <translation>展开所有模块</translation>
    </message>
    <message>
        <source>Needs a memory plan (choose a board and library)</source>
        <translation>需要内存计划（请选择开发板和库）</translation>
    </message>
    <message>
        <source>Needs a run: benchmark the model, or open a run in Run history</source>
        <translation>需要一次运行：对模型进行基准测试，或在运行历史中打开一次运行</translation>
    </message>
    <message>
        <source>added</source>
        <translation>新增</translation>
    </message>
    <message>
        <source>removed</source>
        <translation>删除</translation>
    </message>
    <message>
        <source>fused into a block</source>
        <translation>融合进块</translation>
    </message>
    <message>
        <source>rewritten (other op)</source>
        <translation>改写（其他算子）</translation>
    </message>
    <message>
        <source>unchanged</source>
        <translation>未变</translation>
    </message>
    <message>
        <source>Changes made by the &quot;after&quot; stage (to this stage&apos;s nodes)</source>
        <translation>“之后”阶段所做的变化（针对本阶段的节点）</translation>
    </message>
    <message>
        <source>Changes from the &quot;before&quot; stage</source>
        <translation>相对“之前”阶段的变化</translation>
    </message>
    <message>
        <source>Colour: ONNX Runtime partitions</source>
        <translation>颜色：ONNX Runtime 分区</translation>
    </message>
    <message>
        <source>What the node colours of both graphs show: the op category (the kernel library in the fused stage), the run shown&apos;s time or error per layer, or the bytes of the memory plan in use while each node runs (fused nodes carry their block&apos;s figure); or what the &quot;after&quot; stage changed: nodes added, removed, fused into a block or rewritten to another op; or, for an ONNX Runtime run with SPACEMIT_EP_DUMP_SUBGRAPHS=1, the EP subgraph each node ran in or the CPU provider it fell back to.</source>
        <translation>两个图中节点颜色的含义：算子类别（融合阶段中为内核库）、所显示运行的每层时间或误差，或每个节点运行时内存计划中正在使用的字节数（融合节点显示其所在块的数值）；或“之后”阶段所做的更改：新增、删除、融合进块或改写为其他算子的节点；或者，对于设置了 SPACEMIT_EP_DUMP_SUBGRAPHS=1 的 ONNX Runtime 运行，每个节点运行所在的 EP 子图或其回退到的 CPU 提供程序。</translation>
    </message>
    <message>
        <source>Needs an ONNX Runtime run with SPACEMIT_EP_DUMP_SUBGRAPHS=1: open it in Run history</source>
        <translation>需要一次设置了 SPACEMIT_EP_DUMP_SUBGRAPHS=1 的 ONNX Runtime 运行：在运行历史中打开它</translation>
    </message>
    <message>
        <source>Colour: ONNX Runtime partitions (EP subgraphs: %1, nodes that fell back to the CPU provider: %2)</source>
        <translation>颜色：ONNX Runtime 分区（EP 子图：%1，回退到 CPU 提供程序的节点：%2）</translation>
    </message>
    <message>
        <source>Back</source>
        <translation>返回</translation>
    </message>
    <message>
        <source>Back to the enclosing graph</source>
        <translation>返回外层图</translation>
    </message>
    <message>
        <source>The body shown; click a step to go back to it</source>
        <translation>当前显示的子图；点击某一步返回该处</translation>
    </message>
    <message>
        <source>Graph</source>
        <translation>图</translation>
    </message>
    <message>
        <source>Open body &apos;%1&apos;</source>
        <translation>打开子图“%1”</translation>
    </message>
    <message>
        <source>Expand &apos;%1&apos; one level</source>
        <translation>展开“%1”一层</translation>
    </message>
    <message>
        <source>Expand &apos;%1&apos; fully</source>
        <translation>完全展开“%1”</translation>
    </message>
    <message>
        <source>Fold all blocks at this depth</source>
        <translation>折叠此深度的所有模块</translation>
    </message>
    <message>
        <source>Depth %1, like &apos;%2&apos;</source>
        <translation>深度 %1，如“%2”</translation>
    </message>
</context>
<context>
    <name>embark::ui::StudioJobs</name>
    <message>
        <source>Jobs</source>
        <translation>任务</translation>
    </message>
    <message>
        <source>&amp;Run</source>
        <translation>运行(&amp;R)</translation>
    </message>
    <message>
        <source>&amp;Export...</source>
        <translation>导出(&amp;E)...</translation>
    </message>
    <message>
        <source>Write the standalone C++ export for the chosen board and kernel library</source>
        <translation>为所选开发板和内核库生成独立的 C++ 导出</translation>
    </message>
    <message>
        <source>&amp;Build</source>
        <translation>构建(&amp;B)</translation>
    </message>
    <message>
        <source>Cross-compile the last export (exports the model first when needed)</source>
        <translation>交叉编译最近的导出（必要时先导出模型）</translation>
    </message>
    <message>
        <source>&amp;Deploy and run once</source>
        <translation>部署并运行一次(&amp;D)</translation>
    </message>
    <message>
        <source>Upload the last build to the board and run it once</source>
        <translation>将最近的构建上传到开发板并运行一次</translation>
    </message>
    <message>
        <source>Run &amp;benchmark</source>
        <translation>运行基准测试(&amp;B)</translation>
    </message>
    <message>
        <source>Export, build, deploy and run on the chosen board, then show timings and accuracy (F5)</source>
        <translation>在所选开发板上导出、构建、部署并运行，然后显示耗时和精度 (F5)</translation>
    </message>
    <message>
        <source>&amp;Cancel all jobs</source>
        <translation>取消所有任务(&amp;C)</translation>
    </message>
    <message>
        <source>Run</source>
        <translation>运行</translation>
    </message>
    <message>
        <source>Open a model before exporting it.</source>
        <translation>请先打开模型再导出。</translation>
    </message>
    <message>
        <source>Folder to write the export into</source>
        <translation>导出写入的文件夹</translation>
    </message>
    <message>
        <source>Replace export</source>
        <translation>替换导出</translation>
    </message>
    <message>
        <source>%1 is not empty. Replace it with the new export?</source>
        <translation>%1 不为空。要用新的导出替换它吗？</translation>
    </message>
    <message>
        <source>Export %1 for %2 (%3)</source>
        <translation>为 %2 导出 %1 (%3)</translation>
    </message>
    <message>
        <source>Build %1</source>
        <translation>构建 %1</translation>
    </message>
    <message>
        <source>Deploy to %1</source>
        <translation>部署到 %1</translation>
    </message>
    <message>
        <source>Open a model before running a benchmark.</source>
        <translation>请先打开模型再运行基准测试。</translation>
    </message>
    <message>
        <source>Benchmark %1 on %2 (%3)</source>
        <translation>在 %2 上对 %1 进行基准测试 (%3)</translation>
    </message>
    <message>
        <source>%1 finished: %2</source>
        <translation>%1 已完成：%2</translation>
    </message>
    <message>
        <source>%1 failed: %2</source>
        <translation>%1 失败：%2</translation>
    </message>
    <message>
        <source>%1 was cancelled.</source>
        <translation>%1 已取消。</translation>
    </message>
    <message>
        <source>Folder with the XNNPACK, cpuinfo, pthreadpool and FXdiv tarballs</source>
        <translation>包含 XNNPACK、cpuinfo、pthreadpool 和 FXdiv 源码包的文件夹</translation>
    </message>
    <message>
        <source>Build XNNPACK for %1</source>
        <translation>为 %1 构建 XNNPACK</translation>
    </message>
    <message>
        <source>run #%1</source>
        <translation>运行 #%1</translation>
    </message>
    <message numerus="yes">
        <source>run #%1, median %2 ms over %n iteration(s)</source>
        <translation>
            <numerusform>运行 #%1，%n 次迭代的中位数为 %2 毫秒</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>median %1 ms over %n iteration(s)</source>
        <translation>
            <numerusform>%n 次迭代的中位数为 %1 毫秒</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n layer(s) written to %1</source>
        <translation>
            <numerusform>%n 层已写入 %1</numerusform>
        </translation>
    </message>
    <message>
        <source>%1 (%2, %3)</source>
        <translation>%1（%2，%3）</translation>
    </message>
    <message>
        <source>Open a model before building it.</source>
        <translation>请先打开模型再进行编译。</translation>
    </message>
    <message>
        <source>Export and build %1 for %2</source>
        <translation>为 %2 导出并编译 %1</translation>
    </message>
    <message>
        <source>Build and deploy to %1</source>
        <translation>编译并部署到 %1</translation>
    </message>
    <message>
        <source>Open a model before deploying it.</source>
        <translation>请先打开模型再进行部署。</translation>
    </message>
    <message>
        <source>ONNX Runtime</source>
        <translation>ONNX Runtime</translation>
    </message>
    <message numerus="yes">
        <source>%n layer(s) int8, %1 kept in float, written to %2</source>
        <translation>
            <numerusform>%n 层为 int8，%1 层保留为浮点，已写入 %2</numerusform>
        </translation>
    </message>
    <message>
        <source>%1 is already running.</source>
        <translation>%1 已在运行。</translation>
    </message>
    <message>
        <source>%1 is no longer open: its run is in Run history</source>
        <translation>%1 已不再打开：其运行在运行历史中</translation>
    </message>
    <message>
        <source>%1 finished: %2 (%3)</source>
        <translation>%1 已完成：%2（%3）</translation>
    </message>
    <message>
        <source>ran once: %1</source>
        <translation>已运行一次：%1</translation>
    </message>
    <message>
        <source>Cannot measure the kernel libraries: %1</source>
        <translation>无法测量内核库：%1</translation>
    </message>
    <message>
        <source>Measure kernel libraries: %1 on %2</source>
        <translation>测量内核库：%1 在 %2 上</translation>
    </message>
    <message>
        <source>cancelled</source>
        <translation>已取消</translation>
    </message>
    <message numerus="yes">
        <source>%n node(s) measured (%1 now, %2 from the cache), %3 not on portable</source>
        <translation>
            <numerusform>已测量 %n 个节点（本次 %1，缓存 %2），%3 个不在 portable 上</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>embark::ui::StudioQuantize</name>
    <message>
        <source>%1 is already quantized: open its float model to quantize it, or use &apos;Keep in float&apos; on the Quantization chart.</source>
        <translation>%1 已经量化：请打开其浮点模型进行量化，或在“量化”图表中使用“保留为浮点”。</translation>
    </message>
    <message>
        <source>Quantization</source>
        <translation>量化</translation>
    </message>
    <message>
        <source>&amp;Model</source>
        <translation>模型(&amp;M)</translation>
    </message>
    <message>
        <source>&amp;Quantize...</source>
        <translation>量化(&amp;Q)…</translation>
    </message>
    <message>
        <source>Quantize the open float model to int8 (QDQ) on calibration data, as a background job</source>
        <translation>使用校准数据将打开的浮点模型量化为 int8（QDQ），作为后台任务运行</translation>
    </message>
    <message>
        <source>&amp;Open quantized model</source>
        <translation>打开量化模型(&amp;O)</translation>
    </message>
    <message>
        <source>Open a float model before quantizing it.</source>
        <translation>请先打开浮点模型再进行量化。</translation>
    </message>
    <message>
        <source>Quantize %1 (%2)</source>
        <translation>量化 %1（%2）</translation>
    </message>
    <message numerus="yes">
        <source>Quantize %1 (%2, %n node(s) in float)</source>
        <translation>
            <numerusform>量化 %1（%2，%n 个节点保留为浮点）</numerusform>
        </translation>
    </message>
    <message>
        <source>Quantize the model first (Model &gt; Quantize...).</source>
        <translation>请先量化模型（模型 &gt; 量化…）。</translation>
    </message>
    <message>
        <source>&apos;%1&apos; is not a layer quantization makes int8 (Conv, Gemm or MatMul with constant weights).</source>
        <translation>“%1”不是量化会转为 int8 的层（权重为常量的 Conv、Gemm 或 MatMul）。</translation>
    </message>
    <message>
        <source>&apos;%1&apos; is already kept in float.</source>
        <translation>“%1”已保留为浮点。</translation>
    </message>
    <message>
        <source>Quantize %1 with &apos;%2&apos; in float</source>
        <translation>量化 %1，“%2”保留为浮点</translation>
    </message>
    <message>
        <source>Keep &apos;%1&apos; in float and quantize again</source>
        <translation>将“%1”保留为浮点并重新量化</translation>
    </message>
    <message numerus="yes">
        <source>before (%n int8 layer(s))</source>
        <translation>
            <numerusform>之前（%n 个 int8 层）</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>with &apos;%1&apos; in float (%n int8 layer(s))</source>
        <translation>
            <numerusform>“%1”保留为浮点（%n 个 int8 层）</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%1, %n int8 layer(s)</source>
        <translation>
            <numerusform>%1，%n 个 int8 层</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>embark::ui::StudioSession</name>
    <message>
        <source>&apos;%1&apos; (%2)</source>
        <translation>“%1”（%2）</translation>
    </message>
    <message numerus="yes">
        <source>Cannot run on any board or kernel library: %n node(s) use an op Embark does not support (marked red in the graph): %1. Replace them in the model (or export it without them) to deploy it.</source>
        <translation>
            <numerusform>无法在任何开发板或内核库上运行：%n 个节点使用了 Embark 不支持的算子（图中标红）：%1。请在模型中替换它们（或导出不含它们的模型）后再部署。</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>embark::ui::StudioSweep</name>
    <message>
        <source>S&amp;weep...</source>
        <translation>扫描(&amp;W)…</translation>
    </message>
    <message>
        <source>Benchmark models on every matching board with every chosen library, as one job: a table and a chart with the best library per board</source>
        <translation>在每块匹配的开发板上用每个所选库对模型做基准测试，作为一个作业：一张表格和一张图表，标出每块开发板上最好的库</translation>
    </message>
    <message>
        <source>A sweep needs at least one model and one library.</source>
        <translation>扫描至少需要一个模型和一个库。</translation>
    </message>
    <message>
        <source>Sweep %1 on %2</source>
        <translation>在 %2 上扫描 %1</translation>
    </message>
    <message>
        <source>cancelled</source>
        <translation>已取消</translation>
    </message>
</context>
<context>
    <name>embark::ui::SweepDialog</name>
    <message>
        <source>Int8 cells too (each model quantized with its test data)</source>
        <translation>同时包括 int8 单元（每个模型用其测试数据量化）</translation>
    </message>
    <message>
        <source>Sweep</source>
        <translation>扫描</translation>
    </message>
    <message>
        <source>Add...</source>
        <translation>添加…</translation>
    </message>
    <message>
        <source>Remove</source>
        <translation>移除</translation>
    </message>
    <message>
        <source>sim-*,k1-farm</source>
        <translation>sim-*,k1-farm</translation>
    </message>
    <message>
        <source>Board ids or wildcards, comma-separated</source>
        <translation>开发板 ID 或通配符，以逗号分隔</translation>
    </message>
    <message>
        <source>Each node on the library measured fastest on the board</source>
        <translation>每个节点使用在该开发板上测得最快的库</translation>
    </message>
    <message>
        <source>Models:</source>
        <translation>模型：</translation>
    </message>
    <message>
        <source>Boards:</source>
        <translation>开发板：</translation>
    </message>
    <message>
        <source>Libraries:</source>
        <translation>库：</translation>
    </message>
    <message>
        <source>Iterations:</source>
        <translation>迭代次数：</translation>
    </message>
    <message>
        <source>Run sweep</source>
        <translation>运行扫描</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <source>Models to sweep</source>
        <translation>要扫描的模型</translation>
    </message>
    <message>
        <source>ONNX models (*.onnx)</source>
        <translation>ONNX 模型 (*.onnx)</translation>
    </message>
    <message>
        <source>Name at least one board (an id or a wildcard such as sim-*).</source>
        <translation>请至少指定一块开发板（ID 或 sim-* 这样的通配符）。</translation>
    </message>
    <message numerus="yes">
        <source>%n board(s): %1</source>
        <translation>
            <numerusform>%n 块开发板：%1</numerusform>
        </translation>
    </message>
    <message>
        <source>Choose at least one kernel library.</source>
        <translation>请至少选择一个内核库。</translation>
    </message>
    <message>
        <source>Add at least one model.</source>
        <translation>请至少添加一个模型。</translation>
    </message>
</context>
<context>
    <name>embark::ui::SweepView</name>
    <message>
        <source>%1 µs</source>
        <translation>%1 µs</translation>
    </message>
    <message>
        <source>%1 ms</source>
        <translation>%1 ms</translation>
    </message>
    <message>
        <source>Cancel sweep</source>
        <translation>取消扫描</translation>
    </message>
    <message>
        <source>Export chart...</source>
        <translation>导出图表…</translation>
    </message>
    <message>
        <source>Sweep</source>
        <translation>扫描</translation>
    </message>
    <message>
        <source>Model</source>
        <translation>模型</translation>
    </message>
    <message>
        <source>Board</source>
        <translation>开发板</translation>
    </message>
    <message>
        <source>Library</source>
        <translation>库</translation>
    </message>
    <message>
        <source>Precision</source>
        <translation>精度</translation>
    </message>
    <message>
        <source>State</source>
        <translation>状态</translation>
    </message>
    <message>
        <source>Median</source>
        <translation>中位数</translation>
    </message>
    <message>
        <source>95% CI</source>
        <translation>95% 置信区间</translation>
    </message>
    <message>
        <source>max_rel</source>
        <translation>max_rel</translation>
    </message>
    <message>
        <source>Cosine</source>
        <translation>余弦</translation>
    </message>
    <message>
        <source>Run</source>
        <translation>运行</translation>
    </message>
    <message>
        <source>Device</source>
        <translation>设备</translation>
    </message>
    <message>
        <source>Cancelling the sweep...</source>
        <translation>正在取消扫描…</translation>
    </message>
    <message>
        <source>pending</source>
        <translation>等待中</translation>
    </message>
    <message>
        <source>running</source>
        <translation>运行中</translation>
    </message>
    <message>
        <source>ok</source>
        <translation>成功</translation>
    </message>
    <message>
        <source>failed</source>
        <translation>失败</translation>
    </message>
    <message>
        <source>cancelled</source>
        <translation>已取消</translation>
    </message>
    <message>
        <source>skipped</source>
        <translation>已跳过</translation>
    </message>
    <message>
        <source>Sweep %1</source>
        <translation>扫描 %1</translation>
    </message>
    <message>
        <source>The fastest library of %1 on %2</source>
        <translation>%1 在 %2 上最快的库</translation>
    </message>
    <message numerus="yes">
        <source>Sweep %1: %n cell(s)</source>
        <translation>
            <numerusform>扫描 %1：%n 个单元</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n failed</source>
        <translation>
            <numerusform>%n 个失败</numerusform>
        </translation>
    </message>
    <message>
        <source>Every cell is a stored run (Run history); the best library of each model on each board is highlighted.</source>
        <translation>每个单元都是一次已保存的运行（运行历史）；每个模型在每块开发板上最好的库已突出显示。</translation>
    </message>
    <message numerus="yes">
        <source>%1 of %n cell(s) done</source>
        <translation>
            <numerusform>已完成 %1 / %n 个单元</numerusform>
        </translation>
    </message>
    <message>
        <source>Export the sweep chart</source>
        <translation>导出扫描图表</translation>
    </message>
    <message>
        <source>PNG image (*.png);;SVG image (*.svg);;PDF (*.pdf)</source>
        <translation>PNG 图像 (*.png);;SVG 图像 (*.svg);;PDF (*.pdf)</translation>
    </message>
    <message>
        <source>Export chart</source>
        <translation>导出图表</translation>
    </message>
</context>
<context>
    <name>embark::ui::TargetPanel</name>
    <message>
        <source>New board...</source>
        <translation>新建开发板…</translation>
    </message>
    <message>
        <source>Edit board...</source>
        <translation>编辑开发板…</translation>
    </message>
    <message>
        <source>Create a user board, starting from the selected one</source>
        <translation>以所选开发板为基础创建用户开发板</translation>
    </message>
    <message>
        <source>Edit the selected board (a built-in board is saved as a user board)</source>
        <translation>编辑所选开发板（内置开发板将另存为用户开发板）</translation>
    </message>
    <message>
        <source>Override</source>
        <translation>覆盖</translation>
    </message>
    <message>
        <source>Library</source>
        <translation>库</translation>
    </message>
    <message>
        <source>Add overrides from a node&apos;s context menu in the graph</source>
        <translation>在图中节点的右键菜单里添加覆盖</translation>
    </message>
    <message>
        <source>Remove override</source>
        <translation>删除覆盖</translation>
    </message>
    <message>
        <source>Board:</source>
        <translation>开发板：</translation>
    </message>
    <message>
        <source>Kernel library:</source>
        <translation>内核库：</translation>
    </message>
    <message>
        <source>%1 (user)</source>
        <translation>%1（用户）</translation>
    </message>
    <message>
        <source>%1
%2, %3 cores, %4; runs by %5</source>
        <translation>%1
%2，%3 核，%4；运行方式 %5</translation>
    </message>
    <message>
        <source>node %1</source>
        <translation>节点 %1</translation>
    </message>
    <message>
        <source>every %1</source>
        <translation>所有 %1</translation>
    </message>
    <message numerus="yes">
        <source>%1: %n node(s)</source>
        <translation>
            <numerusform>%1：%n 个节点</numerusform>
        </translation>
    </message>
    <message>
        <source>Arena %1, lower bound %2</source>
        <translation>内存池 %1，下界 %2</translation>
    </message>
    <message>
        <source>SSH...</source>
        <translation>SSH...</translation>
    </message>
    <message>
        <source>Connection settings of the selected board: host, user, port, key; test the connection</source>
        <translation>所选开发板的连接设置：主机、用户、端口、密钥；测试连接</translation>
    </message>
    <message>
        <source>Build upstream XNNPACK for this architecture into Embark&apos;s cache (embark-cli xnnpack build); exports then link it</source>
        <translation>为此架构将上游 XNNPACK 构建到 Embark 的缓存中 (embark-cli xnnpack build)；之后导出会链接它</translation>
    </message>
    <message>
        <source>XNNPACK: %1</source>
        <translation>XNNPACK：%1</translation>
    </message>
    <message>
        <source>Warning: %1</source>
        <translation>警告：%1</translation>
    </message>
    <message>
        <source>Build XNNPACK for %1...</source>
        <translation>为 %1 构建 XNNPACK...</translation>
    </message>
    <message>
        <source>Embark export</source>
        <translation>Embark 导出</translation>
    </message>
    <message>
        <source>ONNX Runtime</source>
        <translation>ONNX Runtime</translation>
    </message>
    <message>
        <source>Runtime:</source>
        <translation>运行时：</translation>
    </message>
    <message>
        <source>Benchmarks run the model with Embark&apos;s export or with %1</source>
        <translation>基准测试使用 Embark 导出或 %1 运行模型</translation>
    </message>
    <message>
        <source>This board has no ONNX Runtime: benchmarks run Embark&apos;s export</source>
        <translation>此开发板没有 ONNX Runtime：基准测试运行 Embark 导出</translation>
    </message>
    <message>
        <source>EP options...</source>
        <translation>EP 选项...</translation>
    </message>
    <message>
        <source>Options of the SpacemiT execution provider (threads, affinity, dumps, profile, filters)</source>
        <translation>SpacemiT 执行提供程序的选项（线程、亲和性、转储、性能分析、过滤器）</translation>
    </message>
    <message>
        <source>EP defaults</source>
        <translation>EP 默认值</translation>
    </message>
    <message>
        <source>auto: each node runs on the library measured fastest for it on this board</source>
        <translation>auto：每个节点在此开发板上运行于测得最快的库</translation>
    </message>
    <message>
        <source>Board</source>
        <translation>开发板</translation>
    </message>
    <message>
        <source>Create a user board or edit the selected one</source>
        <translation>新建用户开发板或编辑所选开发板</translation>
    </message>
    <message>
        <source>auto: the nodes are measured on the board once a model is open</source>
        <translation>auto：打开模型后即在开发板上测量各节点</translation>
    </message>
    <message>
        <source>auto: the measurement failed, every node stays on portable: %1</source>
        <translation>auto：测量失败，所有节点保持在 portable 上：%1</translation>
    </message>
    <message>
        <source>auto: measuring each node on %1 (see Jobs); portable meanwhile</source>
        <translation>auto：正在 %1 上测量每个节点（见“任务”）；期间使用 portable</translation>
    </message>
    <message>
        <source>%1 on %2</source>
        <translation>%2 上 %1 个</translation>
    </message>
    <message numerus="yes">
        <source>auto: %n node(s) measured on %1 (%2 now, %3 cached): %4</source>
        <translation>
            <numerusform>auto：在 %1 上测量了 %n 个节点（本次 %2，缓存 %3）：%4</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>embark::ui::UserGuideDialog</name>
    <message>
        <source>Embark user guide</source>
        <translation>Embark 用户指南</translation>
    </message>
</context>
<context>
    <name>embark::ui::WelcomePage</name>
    <message>
        <source>&lt;h2&gt;Welcome to Embark&lt;/h2&gt;&lt;p&gt;From an ONNX model to an embedded board: inspect it, choose a board and a kernel library, run it and compare the runs.&lt;/p&gt;</source>
        <translation>&lt;h2&gt;欢迎使用 Embark&lt;/h2&gt;&lt;p&gt;从 ONNX 模型到嵌入式开发板：检查模型，选择开发板和内核库，运行并比较各次运行。&lt;/p&gt;</translation>
    </message>
    <message>
        <source>Open model...</source>
        <translation>打开模型...</translation>
    </message>
    <message>
        <source>Open the sample model (%1)</source>
        <translation>打开示例模型（%1）</translation>
    </message>
    <message>
        <source>Recent models</source>
        <translation>最近的模型</translation>
    </message>
    <message>
        <source>Recent runs</source>
        <translation>最近的运行</translation>
    </message>
    <message>
        <source>No model opened yet</source>
        <translation>尚未打开模型</translation>
    </message>
    <message>
        <source>No run yet: open a model and press F5</source>
        <translation>尚无运行：打开模型并按 F5</translation>
    </message>
</context>
<context>
    <name>embark::ui::Workspaces</name>
    <message>
        <source>Workspaces</source>
        <translation>工作区</translation>
    </message>
    <message>
        <source>&amp;Workspace</source>
        <translation>工作区(&amp;W)</translation>
    </message>
    <message>
        <source>Inspect the model: the graphs before and after fusion, Properties, Target and the rewrites (Ctrl+1)</source>
        <translation>检查模型：融合前后的图、属性、目标和重写（Ctrl+1）</translation>
    </message>
    <message>
        <source>Run on the board: the graphs, Target, the jobs and the charts of the run (Ctrl+2)</source>
        <translation>在开发板上运行：图、目标、任务和运行图表（Ctrl+2）</translation>
    </message>
    <message>
        <source>Compare runs: the run history beside the charts (Ctrl+3)</source>
        <translation>比较运行：运行历史与图表并排（Ctrl+3）</translation>
    </message>
    <message>
        <source>Inspect</source>
        <translation>检查</translation>
    </message>
    <message>
        <source>Run</source>
        <translation>运行</translation>
    </message>
    <message>
        <source>Compare</source>
        <translation>比较</translation>
    </message>
</context>
<context>
    <name>main</name>
    <message>
        <source>Embark studio: from an ONNX model to an embedded board.</source>
        <translation>Embark 工作室：从 ONNX 模型到嵌入式开发板。</translation>
    </message>
    <message>
        <source>ONNX model to open.</source>
        <translation>要打开的 ONNX 模型。</translation>
    </message>
    <message>
        <source>Save screenshots of the main views into DIR, then quit.</source>
        <translation>将主要视图的截图保存到 DIR，然后退出。</translation>
    </message>
</context>
</TS>
