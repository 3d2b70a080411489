<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="fr">
<context>
    <name>EngineText</name>
    <message>
        <source>node override</source>
        <translation>surcharge du nœud</translation>
    </message>
    <message>
        <source>op override</source>
        <translation>surcharge de l&apos;opérateur</translation>
    </message>
    <message>
        <source>chosen library</source>
        <translation>bibliothèque choisie</translation>
    </message>
    <message>
        <source>ok</source>
        <translation>ok</translation>
    </message>
    <message>
        <source>failed</source>
        <translation>échec</translation>
    </message>
    <message>
        <source>cancelled</source>
        <translation>annulée</translation>
    </message>
    <message>
        <source>This computer</source>
        <translation>Cet ordinateur</translation>
    </message>
    <message>
        <source>%1: %2 runs %3</source>
        <translation>%1 : %2 exécute %3</translation>
    </message>
    <message>
        <source>portable fallback after %1: %2</source>
        <translation>repli sur portable après %1 : %2</translation>
    </message>
    <message>
        <source>connected to %1</source>
        <translation>connecté à %1</translation>
    </message>
    <message>
        <source>importing %1</source>
        <translation>import de %1</translation>
    </message>
    <message>
        <source>using the model already imported from %1</source>
        <translation>modèle déjà importé depuis %1</translation>
    </message>
    <message>
        <source>plan: %1 nodes after fusion, arena %2</source>
        <translation>plan : %1 nœuds après fusion, arène de %2</translation>
    </message>
    <message>
        <source>built %1 (%2, %3)</source>
        <translation>%1 compilé (%2, %3)</translation>
    </message>
    <message>
        <source>run %1: %2</source>
        <translation>exécution %1 : %2</translation>
    </message>
</context>
<context>
    <name>GraphFolding</name>
    <message>
        <source>Cannot fold these modules: another node runs between their nodes (%1). Expand one of them first.</source>
        <translation>Impossible de replier ces modules : un autre nœud s’exécute entre leurs nœuds (%1). Dépliez d’abord l’un d’eux.</translation>
    </message>
</context>
<context>
    <name>GraphPartitions</name>
    <message>
        <source>CPU provider (fallback)</source>
        <translation>fournisseur CPU (repli)</translation>
    </message>
    <message>
        <source>split between partitions</source>
        <translation>réparti entre partitions</translation>
    </message>
    <message>
        <source>not an ONNX node (added by Embark)</source>
        <translation>pas un nœud ONNX (ajouté par Embark)</translation>
    </message>
    <message>
        <source>EP subgraph %1</source>
        <translation>sous-graphe %1 de l&apos;EP</translation>
    </message>
    <message>
        <source>EP subgraph %1 (%2)</source>
        <translation>sous-graphe %1 de l&apos;EP (%2)</translation>
    </message>
</context>
<context>
    <name>Language</name>
    <message>
        <source>System language</source>
        <translation>Langue du système</translation>
    </message>
</context>
<context>
    <name>QGnomeTheme</name>
    <message>
        <source>&amp;OK</source>
        <translation>&amp;OK</translation>
    </message>
    <message>
        <source>&amp;Save</source>
        <translation>&amp;Enregistrer</translation>
    </message>
    <message>
        <source>&amp;Cancel</source>
        <translation>&amp;Annuler</translation>
    </message>
    <message>
        <source>&amp;Close</source>
        <translation>&amp;Fermer</translation>
    </message>
    <message>
        <source>Close without Saving</source>
        <translation>Fermer sans enregistrer</translation>
    </message>
</context>
<context>
    <name>QPlatformTheme</name>
    <message>
        <source>OK</source>
        <translation>OK</translation>
    </message>
    <message>
        <source>Save</source>
        <translation>Enregistrer</translation>
    </message>
    <message>
        <source>Save All</source>
        <translation>Tout enregistrer</translation>
    </message>
    <message>
        <source>Open</source>
        <translation>Ouvrir</translation>
    </message>
    <message>
        <source>&amp;Yes</source>
        <translation>&amp;Oui</translation>
    </message>
    <message>
        <source>Yes to &amp;All</source>
        <translation>Oui pour &amp;tout</translation>
    </message>
    <message>
        <source>&amp;No</source>
        <translation>&amp;Non</translation>
    </message>
    <message>
        <source>N&amp;o to All</source>
        <translation>N&amp;on pour tout</translation>
    </message>
    <message>
        <source>Abort</source>
        <translation>Abandonner</translation>
    </message>
    <message>
        <source>Retry</source>
        <translation>Réessayer</translation>
    </message>
    <message>
        <source>Ignore</source>
        <translation>Ignorer</translation>
    </message>
    <message>
        <source>Close</source>
        <translation>Fermer</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>Annuler</translation>
    </message>
    <message>
        <source>Discard</source>
        <translation>Ne pas enregistrer</translation>
    </message>
    <message>
        <source>Help</source>
        <translation>Aide</translation>
    </message>
    <message>
        <source>Apply</source>
        <translation>Appliquer</translation>
    </message>
    <message>
        <source>Reset</source>
        <translation>Réinitialiser</translation>
    </message>
    <message>
        <source>Restore Defaults</source>
        <translation>Restaurer les valeurs par défaut</translation>
    </message>
</context>
<context>
    <name>RunReport</name>
    <message>
        <source>A report is written as HTML or PDF: name the file .html or .pdf (not &apos;%1&apos;).</source>
        <translation>Un rapport s’écrit en HTML ou en PDF : nommez le fichier .html ou .pdf (pas « %1 »).</translation>
    </message>
    <message>
        <source>Cannot write %1: %2</source>
        <translation>Impossible d’écrire %1 : %2</translation>
    </message>
</context>
<context>
    <name>SessionCommands</name>
    <message>
        <source>Set board to %1</source>
        <translation>Choisir la carte %1</translation>
    </message>
    <message>
        <source>Set library to %1</source>
        <translation>Choisir la bibliothèque de noyaux %1</translation>
    </message>
    <message>
        <source>Remove the override of node %1</source>
        <translation>Supprimer le forçage du nœud %1</translation>
    </message>
    <message>
        <source>Run node %1 on %2</source>
        <translation>Exécuter le nœud %1 sur %2</translation>
    </message>
    <message>
        <source>Remove the override of every %1</source>
        <translation>Supprimer le forçage de chaque %1</translation>
    </message>
    <message>
        <source>Run every %1 on %2</source>
        <translation>Exécuter chaque %1 sur %2</translation>
    </message>
</context>
<context>
    <name>embark::ui::BoardDialog</name>
    <message>
        <source>User board</source>
        <translation>Carte utilisateur</translation>
    </message>
    <message>
        <source> MiB</source>
        <translation> Mio</translation>
    </message>
    <message>
        <source>SSH</source>
        <translation>SSH</translation>
    </message>
    <message>
        <source>Local (host or qemu-user)</source>
        <translation>Locale (hôte ou qemu-user)</translation>
    </message>
    <message>
        <source>host name or ~/.ssh/config alias</source>
        <translation>nom d&apos;hôte ou alias de ~/.ssh/config</translation>
    </message>
    <message>
        <source>e.g. qemu-riscv64-static -cpu rv64,v=true</source>
        <translation>p. ex. qemu-riscv64-static -cpu rv64,v=true</translation>
    </message>
    <message>
        <source>Id:</source>
        <translation>Identifiant :</translation>
    </message>
    <message>
        <source>Name:</source>
        <translation>Nom :</translation>
    </message>
    <message>
        <source>Architecture:</source>
        <translation>Architecture :</translation>
    </message>
    <message>
        <source>ISA:</source>
        <translation>Jeu d&apos;instructions :</translation>
    </message>
    <message>
        <source>Compiler flags:</source>
        <translation>Options du compilateur :</translation>
    </message>
    <message>
        <source>Cores:</source>
        <translation>Cœurs :</translation>
    </message>
    <message>
        <source>Memory:</source>
        <translation>Mémoire :</translation>
    </message>
    <message>
        <source>Runner:</source>
        <translation>Exécution :</translation>
    </message>
    <message>
        <source>SSH host:</source>
        <translation>Hôte SSH :</translation>
    </message>
    <message>
        <source>Exec prefix:</source>
        <translation>Préfixe d&apos;exécution :</translation>
    </message>
    <message>
        <source>Id: use lower-case letters, digits, &apos;.&apos;, &apos;_&apos; or &apos;-&apos; (it names the file).</source>
        <translation>Identifiant : utilisez des minuscules, des chiffres, « . », « _ » ou « - » (il nomme le fichier).</translation>
    </message>
    <message>
        <source>SSH host: an SSH board needs a host name or an ~/.ssh/config alias.</source>
        <translation>Hôte SSH : une carte SSH a besoin d&apos;un nom d&apos;hôte ou d&apos;un alias de ~/.ssh/config.</translation>
    </message>
    <message>
        <source>Cannot save board</source>
        <translation>Impossible d&apos;enregistrer la carte</translation>
    </message>
    <message>
        <source>Name: give the board a name to show in the board picker.</source>
        <translation>Nom : donnez à la carte un nom à afficher dans le sélecteur de cartes.</translation>
    </message>
</context>
<context>
    <name>embark::ui::ChartWidget</name>
    <message>
        <source>Export...</source>
        <translation>Exporter…</translation>
    </message>
    <message>
        <source>Save the chart as PNG, PDF or SVG, or its data as CSV</source>
        <translation>Enregistrer le graphique en PNG, PDF ou SVG, ou ses données en CSV</translation>
    </message>
    <message>
        <source>Cannot export to &apos;%1&apos;: use a .png, .pdf, .svg or .csv file name.</source>
        <translation>Impossible d&apos;exporter vers « %1 » : utilisez un nom de fichier .png, .pdf, .svg ou .csv.</translation>
    </message>
    <message>
        <source>Cannot write &apos;%1&apos;: check that the folder exists and is writable.</source>
        <translation>Impossible d&apos;écrire « %1 » : vérifiez que le dossier existe et est accessible en écriture.</translation>
    </message>
    <message>
        <source>Export chart</source>
        <translation>Exporter le graphique</translation>
    </message>
    <message>
        <source>PNG image (*.png);;PDF document (*.pdf);;SVG image (*.svg);;CSV data (*.csv)</source>
        <translation>Image PNG (*.png);;Document PDF (*.pdf);;Image SVG (*.svg);;Données CSV (*.csv)</translation>
    </message>
    <message>
        <source>Export failed</source>
        <translation>Échec de l&apos;export</translation>
    </message>
</context>
<context>
    <name>embark::ui::ChartsPanel</name>
    <message>
        <source>Timing</source>
        <translation>Temps</translation>
    </message>
    <message>
        <source>Accuracy</source>
        <translation>Précision</translation>
    </message>
    <message>
        <source>Latency</source>
        <translation>Latence</translation>
    </message>
    <message>
        <source>Comparison</source>
        <translation>Comparaison</translation>
    </message>
    <message>
        <source>run #%1</source>
        <translation>exécution n°%1</translation>
    </message>
    <message>
        <source>unsaved run</source>
        <translation>exécution non enregistrée</translation>
    </message>
    <message>
        <source>Layer timing · %1</source>
        <translation>Temps par couche · %1</translation>
    </message>
    <message>
        <source>Layer accuracy · %1</source>
        <translation>Précision par couche · %1</translation>
    </message>
    <message>
        <source>Latency · %1</source>
        <translation>Latence · %1</translation>
    </message>
    <message>
        <source>Run comparison · %1</source>
        <translation>Comparaison d&apos;exécutions · %1</translation>
    </message>
    <message>
        <source> vs </source>
        <translation> contre </translation>
    </message>
</context>
<context>
    <name>embark::ui::EpOptionsDialog</name>
    <message>
        <source>SpacemiT EP options</source>
        <translation>Options de l&apos;EP SpacemiT</translation>
    </message>
    <message>
        <source>Options the SpacemiT execution provider runs with on the board (environment variables of onnxruntime_perf_test and onnx_test_runner); unset options keep the EP&apos;s default.</source>
        <translation>Options avec lesquelles le fournisseur d&apos;exécution SpacemiT s&apos;exécute sur la carte (variables d&apos;environnement de onnxruntime_perf_test et onnx_test_runner) ; les options non définies gardent la valeur par défaut de l&apos;EP.</translation>
    </message>
    <message>
        <source>(default)</source>
        <translation>(par défaut)</translation>
    </message>
</context>
<context>
    <name>embark::ui::FarmDevicesPanel</name>
    <message>
        <source>Board</source>
        <translation>Carte</translation>
    </message>
    <message>
        <source>Device</source>
        <translation>Appareil</translation>
    </message>
    <message>
        <source>State</source>
        <translation>État</translation>
    </message>
    <message>
        <source>LAVA says</source>
        <translation>Selon LAVA</translation>
    </message>
    <message>
        <source>bad</source>
        <translation>défaillant</translation>
    </message>
    <message>
        <source>offline</source>
        <translation>hors ligne</translation>
    </message>
    <message>
        <source>running job %1</source>
        <translation>exécute la tâche %1</translation>
    </message>
    <message>
        <source>running job %1 for %2</source>
        <translation>exécute la tâche %1 pour %2</translation>
    </message>
    <message>
        <source>reserved for job %1</source>
        <translation>réservé pour la tâche %1</translation>
    </message>
    <message>
        <source>reserved for job %1 of %2</source>
        <translation>réservé pour la tâche %1 de %2</translation>
    </message>
    <message>
        <source>idle</source>
        <translation>libre</translation>
    </message>
    <message>
        <source>no device</source>
        <translation>aucun appareil</translation>
    </message>
    <message>
        <source>%1 has no device of type &apos;%2&apos; with the board&apos;s tags</source>
        <translation>%1 n’a aucun appareil de type « %2 » portant les étiquettes de la carte</translation>
    </message>
    <message>
        <source>Asking LAVA...</source>
        <translation>Interrogation de LAVA…</translation>
    </message>
    <message>
        <source>No farm board: a board file with a &quot;farm&quot; object names a LAVA instance and a device type (see docs/farm.md).</source>
        <translation>Aucune carte de ferme : un fichier de carte avec un objet « farm » désigne une instance LAVA et un type d’appareil (voir docs/farm.md).</translation>
    </message>
    <message>
        <source>Updated %1</source>
        <translation>Mis à jour à %1</translation>
    </message>
</context>
<context>
    <name>embark::ui::GraphOverview</name>
    <message>
        <source>Overview: click or drag to move the view</source>
        <translation>Vue d&apos;ensemble : cliquez ou faites glisser pour déplacer la vue</translation>
    </message>
</context>
<context>
    <name>embark::ui::GraphPanel</name>
    <message>
        <source>Find node by name or op (Ctrl+F)</source>
        <translation>Chercher un nœud par nom ou opérateur (Ctrl+F)</translation>
    </message>
    <message numerus="yes">
        <source>%n match(es)</source>
        <translation>
            <numerusform>%n résultat</numerusform>
            <numerusform>%n résultats</numerusform>
        </translation>
    </message>
    <message>
        <source>Enter: next match, Shift+Enter: previous match</source>
        <translation>Entrée : résultat suivant, Maj+Entrée : résultat précédent</translation>
    </message>
    <message>
        <source>Previous match (Shift+Enter)</source>
        <translation>Résultat précédent (Maj+Entrée)</translation>
    </message>
    <message>
        <source>Next match (Enter)</source>
        <translation>Résultat suivant (Entrée)</translation>
    </message>
    <message>
        <source>Selection</source>
        <translation>Sélection</translation>
    </message>
    <message>
        <source>Zoom to the selected and linked nodes</source>
        <translation>Zoomer sur les nœuds sélectionnés et liés</translation>
    </message>
    <message>
        <source>Fit</source>
        <translation>Ajuster</translation>
    </message>
    <message>
        <source>Show the whole graph</source>
        <translation>Afficher tout le graphe</translation>
    </message>
    <message>
        <source>Overview</source>
        <translation>Vue d&apos;ensemble</translation>
    </message>
    <message>
        <source>Show or hide the overview of the graph</source>
        <translation>Afficher ou masquer la vue d&apos;ensemble du graphe</translation>
    </message>
    <message>
        <source>no match</source>
        <translation>aucun résultat</translation>
    </message>
    <message>
        <source>%1 of %2</source>
        <translation>%1 sur %2</translation>
    </message>
    <message>
        <source>What the node colours mean. A folded corner and a &quot;+ ...&quot; line mark a fused node and the ops it absorbed.</source>
        <translation>Signification des couleurs des nœuds. Un coin replié et une ligne « + ... » marquent un nœud fusionné et les opérations qu&apos;il a absorbées.</translation>
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
        <translation>%1 « %2 »</translation>
    </message>
    <message>
        <source>graph input %1</source>
        <translation>entrée du graphe %1</translation>
    </message>
    <message>
        <source>graph output %1</source>
        <translation>sortie du graphe %1</translation>
    </message>
    <message>
        <source>fused: absorbed %1</source>
        <translation>fusionné : a absorbé %1</translation>
    </message>
    <message>
        <source>from the original nodes %1</source>
        <translation>issu des nœuds d&apos;origine %1</translation>
    </message>
    <message>
        <source>Colour: %1</source>
        <translation>Couleur : %1</translation>
    </message>
    <message>
        <source>no figure</source>
        <translation>aucune mesure</translation>
    </message>
    <message>
        <source>Colour: kernel library</source>
        <translation>Couleur : bibliothèque de noyaux</translation>
    </message>
    <message>
        <source>Colour: op category</source>
        <translation>Couleur : catégorie d&apos;opération</translation>
    </message>
    <message>
        <source>not assigned</source>
        <translation>non attribué</translation>
    </message>
    <message numerus="yes">
        <source>%n nodes folded</source>
        <translation>
            <numerusform>%n nœud replié</numerusform>
            <numerusform>%n nœuds repliés</numerusform>
        </translation>
    </message>
    <message>
        <source>Colour: %1, log scale</source>
        <translation>Couleur : %1, échelle logarithmique</translation>
    </message>
    <message>
        <source>folded module</source>
        <translation>module replié</translation>
    </message>
    <message>
        <source>Colour: %1 against the tolerance %2</source>
        <translation>Couleur : %1 par rapport à la tolérance %2</translation>
    </message>
    <message>
        <source>≤ %1</source>
        <translation>≤ %1</translation>
    </message>
    <message>
        <source>≤ %1 (within tolerance)</source>
        <translation>≤ %1 (dans la tolérance)</translation>
    </message>
    <message>
        <source>&gt; %1 (above tolerance)</source>
        <translation>&gt; %1 (au-delà de la tolérance)</translation>
    </message>
    <message>
        <source>≥ %1</source>
        <translation>≥ %1</translation>
    </message>
    <message>
        <source>unsupported: %1</source>
        <translation>non pris en charge : %1</translation>
    </message>
    <message>
        <source>unsupported op</source>
        <translation>opération non prise en charge</translation>
    </message>
</context>
<context>
    <name>embark::ui::HostKeyDialog</name>
    <message>
        <source>Unknown SSH host key</source>
        <translation>Clé d&apos;hôte SSH inconnue</translation>
    </message>
    <message>
        <source>&lt;b&gt;%1&lt;/b&gt; is not in your known hosts yet. Compare this fingerprint with the board&apos;s own (on the board: &lt;tt&gt;ssh-keygen -lf /etc/ssh/ssh_host_%2_key.pub&lt;/tt&gt;) before you trust it. A wrong fingerprint means you may not be talking to your board.</source>
        <translation>&lt;b&gt;%1&lt;/b&gt; n&apos;est pas encore dans vos hôtes connus. Comparez cette empreinte avec celle de la carte (sur la carte : &lt;tt&gt;ssh-keygen -lf /etc/ssh/ssh_host_%2_key.pub&lt;/tt&gt;) avant de lui faire confiance. Une empreinte différente signifie que vous ne parlez peut-être pas à votre carte.</translation>
    </message>
    <message>
        <source>Host:</source>
        <translation>Hôte :</translation>
    </message>
    <message>
        <source>Port:</source>
        <translation>Port :</translation>
    </message>
    <message>
        <source>Key type:</source>
        <translation>Type de clé :</translation>
    </message>
    <message>
        <source>Fingerprint:</source>
        <translation>Empreinte :</translation>
    </message>
    <message>
        <source>Recorded in:</source>
        <translation>Enregistrée dans :</translation>
    </message>
    <message>
        <source>(the default known_hosts)</source>
        <translation>(le known_hosts par défaut)</translation>
    </message>
    <message>
        <source>Trust and remember</source>
        <translation>Faire confiance et mémoriser</translation>
    </message>
    <message>
        <source>Reject</source>
        <translation>Refuser</translation>
    </message>
</context>
<context>
    <name>embark::ui::InputShapesDialog</name>
    <message>
        <source>no shape declared</source>
        <translation>aucune forme déclarée</translation>
    </message>
    <message>
        <source>scalar</source>
        <translation>scalaire</translation>
    </message>
    <message>
        <source>Input shapes of %1</source>
        <translation>Formes des entrées de %1</translation>
    </message>
    <message>
        <source>Some inputs of this model have free dimensions (a batch size, an image size, ...). Embark plans memory and generates code for fixed shapes: choose the size of each free dimension.</source>
        <translation>Certaines entrées de ce modèle ont des dimensions libres (taille de lot, taille d&apos;image, ...). Embark planifie la mémoire et génère le code pour des formes fixes : choisissez la taille de chaque dimension libre.</translation>
    </message>
    <message>
        <source>e.g. 1x3x224x224</source>
        <translation>p. ex. 1x3x224x224</translation>
    </message>
    <message>
        <source>dimension %1</source>
        <translation>dimension %1</translation>
    </message>
    <message>
        <source>Free dimension %1 of input %2</source>
        <translation>Dimension libre %1 de l&apos;entrée %2</translation>
    </message>
    <message>
        <source>&lt;b&gt;%1&lt;/b&gt; (%2)&lt;br&gt;&lt;small&gt;declared: %3&lt;/small&gt;</source>
        <translation>&lt;b&gt;%1&lt;/b&gt; (%2)&lt;br&gt;&lt;small&gt;déclarée : %3&lt;/small&gt;</translation>
    </message>
    <message>
        <source>&amp;Open</source>
        <translation>&amp;Ouvrir</translation>
    </message>
    <message>
        <source>Enter the shape of %1 as sizes joined by x, e.g. 1x3x224x224.</source>
        <translation>Saisissez la forme de %1 en tailles séparées par x, p. ex. 1x3x224x224.</translation>
    </message>
</context>
<context>
    <name>embark::ui::JobsPanel</name>
    <message>
        <source>Job</source>
        <translation>Tâche</translation>
    </message>
    <message>
        <source>State</source>
        <translation>État</translation>
    </message>
    <message>
        <source>Progress</source>
        <translation>Progression</translation>
    </message>
    <message>
        <source>Elapsed</source>
        <translation>Durée</translation>
    </message>
    <message>
        <source>Select a job to see its log.</source>
        <translation>Sélectionnez une tâche pour voir son journal.</translation>
    </message>
    <message>
        <source>&amp;Cancel job</source>
        <translation>&amp;Annuler la tâche</translation>
    </message>
    <message>
        <source>C&amp;lear finished</source>
        <translation>E&amp;ffacer les terminées</translation>
    </message>
    <message>
        <source>Queued</source>
        <translation>En attente</translation>
    </message>
    <message>
        <source>Running</source>
        <translation>En cours</translation>
    </message>
    <message>
        <source>Succeeded</source>
        <translation>Réussie</translation>
    </message>
    <message>
        <source>Failed</source>
        <translation>Échouée</translation>
    </message>
    <message>
        <source>Cancelled</source>
        <translation>Annulée</translation>
    </message>
    <message>
        <source>%1 s</source>
        <translation>%1 s</translation>
    </message>
    <message>
        <source>resolve</source>
        <translation>résolution</translation>
    </message>
    <message>
        <source>tools</source>
        <translation>outils</translation>
    </message>
    <message>
        <source>import</source>
        <translation>import</translation>
    </message>
    <message>
        <source>plan</source>
        <translation>plan</translation>
    </message>
    <message>
        <source>export</source>
        <translation>export</translation>
    </message>
    <message>
        <source>fits</source>
        <translation>capacité</translation>
    </message>
    <message>
        <source>build</source>
        <translation>compilation</translation>
    </message>
    <message>
        <source>deploy</source>
        <translation>déploiement</translation>
    </message>
    <message>
        <source>run</source>
        <translation>exécution</translation>
    </message>
    <message>
        <source>compare</source>
        <translation>comparaison</translation>
    </message>
    <message>
        <source>store</source>
        <translation>enregistrement</translation>
    </message>
    <message>
        <source>build XNNPACK</source>
        <translation>compilation de XNNPACK</translation>
    </message>
    <message>
        <source>iteration %1: %2 ms</source>
        <translation>itération %1 : %2 ms</translation>
    </message>
    <message>
        <source>board run of %1 (%2, %3): %4 layer(s), %5 thread(s), %6 warm-up and %7 timed iteration(s)</source>
        <translation>exécution de %1 sur la carte (%2, %3) : %4 couche(s), %5 thread(s), %6 itération(s) de chauffe et %7 chronométrée(s)</translation>
    </message>
    <message>
        <source>output %1 (%2) written to %3</source>
        <translation>sortie %1 (%2) écrite dans %3</translation>
    </message>
    <message>
        <source>check of %1 on the board: max abs %2, max rel %3 (tolerance %4): %5</source>
        <translation>vérification de %1 sur la carte : écart abs. max %2, rel. max %3 (tolérance %4) : %5</translation>
    </message>
    <message>
        <source>ok</source>
        <translation>ok</translation>
    </message>
    <message>
        <source>NOT OK</source>
        <translation>ÉCHEC</translation>
    </message>
    <message>
        <source>error on the board (%1): %2</source>
        <translation>erreur sur la carte (%1) : %2</translation>
    </message>
    <message>
        <source>Started</source>
        <translation>Début</translation>
    </message>
    <message>
        <source>%1, %2</source>
        <translation>%1, %2</translation>
    </message>
    <message>
        <source>Started at %1</source>
        <translation>Commencé à %1</translation>
    </message>
    <message>
        <source>%1 (%2/%3)</source>
        <translation>%1 (%2/%3)</translation>
    </message>
    <message>
        <source>predicted class %1 (score %2); top %3: %4</source>
        <translation>classe prédite %1 (score %2) ; top %3 : %4</translation>
    </message>
    <message>
        <source>&amp;Open output folder</source>
        <translation>&amp;Ouvrir le dossier de sortie</translation>
    </message>
    <message>
        <source>Open the folder the selected job wrote (the export, the build) in the file manager</source>
        <translation>Ouvrir dans le gestionnaire de fichiers le dossier écrit par la tâche sélectionnée (l&apos;export, la compilation)</translation>
    </message>
    <message>
        <source>&apos;%1&apos; is not on this computer any more (was the export replaced?)</source>
        <translation>« %1 » n&apos;est plus sur cet ordinateur (l&apos;export a-t-il été remplacé ?)</translation>
    </message>
</context>
<context>
    <name>embark::ui::LatencyChart</name>
    <message>
        <source>Latency distribution</source>
        <translation>Distribution des latences</translation>
    </message>
    <message>
        <source>latency (ms)</source>
        <translation>latence (ms)</translation>
    </message>
    <message>
        <source>iterations</source>
        <translation>itérations</translation>
    </message>
    <message>
        <source>Run a benchmark (F5) to see how the latency varies over the iterations.</source>
        <translation>Lancez un banc d&apos;essai (F5) pour voir la latence varier au fil des itérations.</translation>
    </message>
    <message>
        <source>latency (%1)</source>
        <translation>latence (%1)</translation>
    </message>
    <message>
        <source>median %1</source>
        <translation>médiane %1</translation>
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
        <translation>Précision par couche</translation>
    </message>
    <message>
        <source>Cosine similarity</source>
        <translation>Similarité cosinus</translation>
    </message>
    <message>
        <source>SNR (dB)</source>
        <translation>RSB (dB)</translation>
    </message>
    <message>
        <source>Max relative error</source>
        <translation>Erreur relative max.</translation>
    </message>
    <message>
        <source>Metric:</source>
        <translation>Mesure :</translation>
    </message>
    <message>
        <source>Run a benchmark (F5) to see each layer&apos;s accuracy against the reference.</source>
        <translation>Lancez un banc d&apos;essai (F5) pour voir la précision de chaque couche par rapport à la référence.</translation>
    </message>
    <message>
        <source>&lt;b&gt;%1&lt;/b&gt; (layer %2)&lt;br&gt;cosine %3&lt;br&gt;SNR %4 dB&lt;br&gt;max relative error %5</source>
        <translation>&lt;b&gt;%1&lt;/b&gt; (couche %2)&lt;br&gt;cosinus %3&lt;br&gt;SNR %4 dB&lt;br&gt;erreur relative max %5</translation>
    </message>
    <message>
        <source>&lt;br&gt;&lt;b&gt;worst layer&lt;/b&gt; for this metric</source>
        <translation>&lt;br&gt;&lt;b&gt;pire couche&lt;/b&gt; pour cette mesure</translation>
    </message>
    <message>
        <source>&lt;br&gt;&lt;b&gt;first divergent layer&lt;/b&gt;</source>
        <translation>&lt;br&gt;&lt;b&gt;première couche divergente&lt;/b&gt;</translation>
    </message>
    <message>
        <source>layer (schedule order; hover a point for its name)</source>
        <translation>couche (ordre d&apos;exécution ; survolez un point pour son nom)</translation>
    </message>
    <message>
        <source>tolerance %1</source>
        <translation>tolérance %1</translation>
    </message>
    <message>
        <source>tolerance %1 dB</source>
        <translation>tolérance %1 dB</translation>
    </message>
    <message>
        <source>worst: %1</source>
        <translation>pire : %1</translation>
    </message>
    <message>
        <source>first divergent layer: %1 (layer %2)</source>
        <translation>première couche divergente : %1 (couche %2)</translation>
    </message>
</context>
<context>
    <name>embark::ui::LayerTimingChart</name>
    <message>
        <source>Per-layer timing</source>
        <translation>Temps par couche</translation>
    </message>
    <message>
        <source>Slowest layers</source>
        <translation>Couches les plus lentes</translation>
    </message>
    <message>
        <source>All layers in graph order</source>
        <translation>Toutes les couches dans l&apos;ordre du graphe</translation>
    </message>
    <message>
        <source>Totals by op type</source>
        <translation>Totaux par type d&apos;opération</translation>
    </message>
    <message>
        <source>Slowest layers first, every layer in graph order (scroll with the wheel), or the time of all layers of each op type added up</source>
        <translation>Les couches les plus lentes d&apos;abord, toutes les couches dans l&apos;ordre du graphe (défilement à la molette), ou le temps cumulé des couches de chaque type d&apos;opération</translation>
    </message>
    <message>
        <source>all</source>
        <translation>toutes</translation>
    </message>
    <message>
        <source>top </source>
        <translation>les </translation>
    </message>
    <message>
        <source>How many of the slowest layers to show (0 = all; the rest scroll)</source>
        <translation>Nombre de couches les plus lentes à afficher (0 = toutes ; les autres défilent)</translation>
    </message>
    <message>
        <source>Show:</source>
        <translation>Afficher :</translation>
    </message>
    <message>
        <source>time per iteration (ms)</source>
        <translation>temps par itération (ms)</translation>
    </message>
    <message>
        <source>Run a benchmark (F5) to see per-layer timings.</source>
        <translation>Lancez un banc d&apos;essai (F5) pour voir les temps par couche.</translation>
    </message>
    <message>
        <source>1 layer</source>
        <translation>1 couche</translation>
    </message>
    <message>
        <source>%1 layers</source>
        <translation>%1 couches</translation>
    </message>
    <message>
        <source>%1 ×%2</source>
        <translation>%1 ×%2</translation>
    </message>
    <message>
        <source>unknown library</source>
        <translation>bibliothèque inconnue</translation>
    </message>
    <message>
        <source>&lt;br&gt;library: %1&lt;br&gt;time: %2 of %3 (%4%)</source>
        <translation>&lt;br&gt;bibliothèque : %1&lt;br&gt;temps : %2 sur %3 (%4 %)</translation>
    </message>
    <message>
        <source>&lt;b&gt;%1&lt;/b&gt;&lt;br&gt;op: %2&lt;br&gt;library: %3&lt;br&gt;time: %4 (%5% of %6)&lt;br&gt;&lt;i&gt;click to select it in the graph&lt;/i&gt;</source>
        <translation>&lt;b&gt;%1&lt;/b&gt;&lt;br&gt;opération : %2&lt;br&gt;bibliothèque : %3&lt;br&gt;temps : %4 (%5 % de %6)&lt;br&gt;&lt;i&gt;cliquez pour la sélectionner dans le graphe&lt;/i&gt;</translation>
    </message>
    <message>
        <source>time per iteration (%1)</source>
        <translation>temps par itération (%1)</translation>
    </message>
    <message numerus="yes">
        <source>%1 over %n layer(s) in %2 op types</source>
        <translation>
            <numerusform>%1 sur %n couche dans %2 types d&apos;opération</numerusform>
            <numerusform>%1 sur %n couches dans %2 types d&apos;opération</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%1 over %n layer(s); hover for details, click to select</source>
        <translation>
            <numerusform>%1 sur %n couche ; survolez pour les détails, cliquez pour sélectionner</numerusform>
            <numerusform>%1 sur %n couches ; survolez pour les détails, cliquez pour sélectionner</numerusform>
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
        <translation>Ouvrez un modèle ONNX (Ctrl+O) ou déposez-le sur la fenêtre.</translation>
    </message>
    <message>
        <source>&amp;File</source>
        <translation>&amp;Fichier</translation>
    </message>
    <message>
        <source>&amp;Open model...</source>
        <translation>&amp;Ouvrir un modèle…</translation>
    </message>
    <message>
        <source>Open ONNX model</source>
        <translation>Ouvrir un modèle ONNX</translation>
    </message>
    <message>
        <source>ONNX models (*.onnx)</source>
        <translation>Modèles ONNX (*.onnx)</translation>
    </message>
    <message>
        <source>Open &amp;recent</source>
        <translation>Ouverts &amp;récemment</translation>
    </message>
    <message>
        <source>&amp;Quit</source>
        <translation>&amp;Quitter</translation>
    </message>
    <message>
        <source>&amp;Edit</source>
        <translation>&amp;Édition</translation>
    </message>
    <message>
        <source>Undo</source>
        <translation>Annuler</translation>
    </message>
    <message>
        <source>Redo</source>
        <translation>Rétablir</translation>
    </message>
    <message>
        <source>&amp;View</source>
        <translation>&amp;Affichage</translation>
    </message>
    <message>
        <source>&amp;Fit graph</source>
        <translation>A&amp;juster le graphe</translation>
    </message>
    <message>
        <source>Zoom &amp;in</source>
        <translation>Zoom &amp;avant</translation>
    </message>
    <message>
        <source>Zoom &amp;out</source>
        <translation>Zoom a&amp;rrière</translation>
    </message>
    <message>
        <source>&amp;Find node...</source>
        <translation>&amp;Chercher un nœud…</translation>
    </message>
    <message>
        <source>&amp;Before and after side by side</source>
        <translation>A&amp;vant et après côte à côte</translation>
    </message>
    <message>
        <source>&amp;Settings</source>
        <translation>&amp;Paramètres</translation>
    </message>
    <message>
        <source>&amp;Language</source>
        <translation>&amp;Langue</translation>
    </message>
    <message>
        <source>Language</source>
        <translation>Langue</translation>
    </message>
    <message>
        <source>The new language applies the next time Embark starts.</source>
        <translation>La nouvelle langue s&apos;appliquera au prochain démarrage d&apos;Embark.</translation>
    </message>
    <message>
        <source>&amp;Help</source>
        <translation>&amp;Aide</translation>
    </message>
    <message>
        <source>&amp;About Embark</source>
        <translation>À &amp;propos d&apos;Embark</translation>
    </message>
    <message>
        <source>About Embark</source>
        <translation>À propos d&apos;Embark</translation>
    </message>
    <message>
        <source>&lt;h3&gt;Embark %1&lt;/h3&gt;&lt;p&gt;From an ONNX model to an embedded board: inspect, fuse, choose a board and kernel library, export, run and compare.&lt;/p&gt;</source>
        <translation>&lt;h3&gt;Embark %1&lt;/h3&gt;&lt;p&gt;D&apos;un modèle ONNX à une carte embarquée : inspecter, fusionner, choisir une carte et une bibliothèque de noyaux, exporter, exécuter et comparer.&lt;/p&gt;</translation>
    </message>
    <message>
        <source>Main</source>
        <translation>Principale</translation>
    </message>
    <message>
        <source>%1 - Embark</source>
        <translation>%1 - Embark</translation>
    </message>
    <message>
        <source>Properties</source>
        <translation>Propriétés</translation>
    </message>
    <message>
        <source>Target</source>
        <translation>Cible</translation>
    </message>
    <message>
        <source>Charts</source>
        <translation>Graphiques</translation>
    </message>
    <message>
        <source>Cannot open model</source>
        <translation>Impossible d&apos;ouvrir le modèle</translation>
    </message>
    <message>
        <source>Cannot open %1</source>
        <translation>Impossible d&apos;ouvrir %1</translation>
    </message>
    <message>
        <source>Opened %1: %2 nodes, %3 after fusion</source>
        <translation>%1 ouvert : %2 nœuds, %3 après fusion</translation>
    </message>
    <message>
        <source>Run node &apos;%1&apos; on</source>
        <translation>Exécuter le nœud « %1 » avec</translation>
    </message>
    <message>
        <source>Run every %1 on</source>
        <translation>Exécuter chaque %1 avec</translation>
    </message>
    <message>
        <source>Default (no override)</source>
        <translation>Par défaut (sans forçage)</translation>
    </message>
    <message>
        <source>&amp;SSH connection of the board...</source>
        <translation>Connexion &amp;SSH de la carte...</translation>
    </message>
    <message>
        <source>Run history</source>
        <translation>Historique des exécutions</translation>
    </message>
    <message>
        <source>Opening %1...</source>
        <translation>Ouverture de %1...</translation>
    </message>
    <message>
        <source>superseded by another model</source>
        <translation>remplacé par un autre modèle</translation>
    </message>
    <message>
        <source>&amp;User guide</source>
        <translation>&amp;Guide de l&apos;utilisateur</translation>
    </message>
    <message>
        <source>&amp;Keyboard shortcuts</source>
        <translation>&amp;Raccourcis clavier</translation>
    </message>
    <message>
        <source>%1 has inputs of free size: choose their shapes</source>
        <translation>%1 a des entrées de taille libre : choisissez leurs formes</translation>
    </message>
    <message>
        <source>%1 was not opened: its input shapes are needed</source>
        <translation>%1 n&apos;a pas été ouvert : les formes de ses entrées sont nécessaires</translation>
    </message>
    <message>
        <source>Rewrites</source>
        <translation>Réécritures</translation>
    </message>
    <message>
        <source>&amp;Welcome page</source>
        <translation>Page d&apos;&amp;accueil</translation>
    </message>
    <message>
        <source>Module %1</source>
        <translation>Module %1</translation>
    </message>
    <message>
        <source>%1 is a run of %2, which no longer exists: its charts are shown, not on the graph.</source>
        <translation>%1 est une exécution de %2, qui n&apos;existe plus : ses graphiques sont affichés, pas sur le graphe.</translation>
    </message>
    <message>
        <source>Jobs are running</source>
        <translation>Des tâches sont en cours</translation>
    </message>
    <message numerus="yes">
        <source>%n job(s) are still running or queued. Cancel them and quit?</source>
        <translation>
            <numerusform>%n tâche est encore en cours ou en attente. L&apos;annuler et quitter ?</numerusform>
            <numerusform>%n tâches sont encore en cours ou en attente. Les annuler et quitter ?</numerusform>
        </translation>
    </message>
    <message>
        <source>Cancel jobs and quit</source>
        <translation>Annuler les tâches et quitter</translation>
    </message>
    <message>
        <source>Keep working</source>
        <translation>Continuer</translation>
    </message>
    <message>
        <source>Cancelling the jobs...</source>
        <translation>Annulation des tâches...</translation>
    </message>
    <message>
        <source>Opening %1 with the input shapes chosen last time</source>
        <translation>Ouverture de %1 avec les formes d&apos;entrée choisies la dernière fois</translation>
    </message>
    <message>
        <source>Farm</source>
        <translation>Ferme</translation>
    </message>
</context>
<context>
    <name>embark::ui::MemoryChart</name>
    <message>
        <source>Memory plan</source>
        <translation>Plan mémoire</translation>
    </message>
    <message>
        <source>schedule step</source>
        <translation>étape de l&apos;ordonnancement</translation>
    </message>
    <message>
        <source>arena offset (KiB)</source>
        <translation>décalage dans l&apos;arène (Kio)</translation>
    </message>
    <message>
        <source>lower bound %1 KiB</source>
        <translation>borne inférieure %1 Kio</translation>
    </message>
    <message>
        <source>Open a model to see where its activations live in the arena over time.</source>
        <translation>Ouvrez un modèle pour voir où ses activations résident dans l&apos;arène au fil du temps.</translation>
    </message>
    <message>
        <source>live</source>
        <translation>vivant</translation>
    </message>
    <message>
        <source>arena %1 KiB (optimal)</source>
        <translation>arène %1 Kio (optimale)</translation>
    </message>
    <message>
        <source>arena %1 KiB (+%2%)</source>
        <translation>arène %1 Kio (+%2 %)</translation>
    </message>
    <message>
        <source>&lt;b&gt;buffer %1&lt;/b&gt;: %2&lt;br&gt;%3 bytes at offset %4 (%5 KiB)&lt;br&gt;live from step %6 (%7)&lt;br&gt;to step %8 (%9)</source>
        <translation>&lt;b&gt;tampon %1&lt;/b&gt; : %2&lt;br&gt;%3 octets au décalage %4 (%5 Kio)&lt;br&gt;vivant de l&apos;étape %6 (%7)&lt;br&gt;à l&apos;étape %8 (%9)</translation>
    </message>
</context>
<context>
    <name>embark::ui::PlanDiffDialog</name>
    <message>
        <source>added</source>
        <translation>ajouté</translation>
    </message>
    <message>
        <source>removed</source>
        <translation>supprimé</translation>
    </message>
    <message>
        <source>fused differently</source>
        <translation>fusionné autrement</translation>
    </message>
    <message>
        <source>re-assigned (library or layout)</source>
        <translation>réaffecté (bibliothèque ou disposition)</translation>
    </message>
    <message>
        <source>rewritten (other op)</source>
        <translation>réécrit (autre opération)</translation>
    </message>
    <message>
        <source>unchanged</source>
        <translation>inchangé</translation>
    </message>
    <message>
        <source>Run #%1: %2 on %3 (%4)</source>
        <translation>Exécution #%1 : %2 sur %3 (%4)</translation>
    </message>
    <message>
        <source>Plans of runs #%1 and #%2</source>
        <translation>Plans des exécutions #%1 et #%2</translation>
    </message>
    <message>
        <source>Select a node to see what changed.</source>
        <translation>Sélectionnez un nœud pour voir ce qui a changé.</translation>
    </message>
    <message>
        <source>Baseline %1</source>
        <translation>Référence %1</translation>
    </message>
    <message>
        <source>Run #%1&apos;s plan cannot be drawn: %2</source>
        <translation>Le plan de l&apos;exécution #%1 ne peut pas être dessiné : %2</translation>
    </message>
    <message>
        <source>The plans of runs #%1 and #%2 are the same: every node runs with the same library and layout.</source>
        <translation>Les plans des exécutions #%1 et #%2 sont identiques : chaque nœud tourne avec la même bibliothèque et la même disposition.</translation>
    </message>
    <message>
        <source>Run #%2 against run #%1 (baseline): %3 re-assigned to another library or layout, %4 fused differently (%5 in #%1, %6 in #%2), %7 added, %8 removed, %9 rewritten.</source>
        <translation>Exécution #%2 par rapport à l&apos;exécution #%1 (référence) : %3 réaffectés à une autre bibliothèque ou disposition, %4 fusionnés autrement (%5 dans #%1, %6 dans #%2), %7 ajoutés, %8 supprimés, %9 réécrits.</translation>
    </message>
    <message>
        <source>Changes to the baseline&apos;s nodes</source>
        <translation>Changements des nœuds de la référence</translation>
    </message>
    <message>
        <source>Changes from the baseline</source>
        <translation>Changements par rapport à la référence</translation>
    </message>
    <message>
        <source>%1 (run #%2): %3</source>
        <translation>%1 (exécution #%2) : %3</translation>
    </message>
    <message>
        <source>; run #%1: %2 %3, run #%4: %5 %6</source>
        <translation> ; exécution #%1 : %2 %3, exécution #%4 : %5 %6</translation>
    </message>
    <message>
        <source>; in run #%1: %2</source>
        <translation> ; dans l&apos;exécution #%1 : %2</translation>
    </message>
</context>
<context>
    <name>embark::ui::PropertiesPanel</name>
    <message>
        <source>min %1  max %2  mean %3  std %4</source>
        <translation>min %1  max %2  moyenne %3  écart-type %4</translation>
    </message>
    <message>
        <source>Property</source>
        <translation>Propriété</translation>
    </message>
    <message>
        <source>Value</source>
        <translation>Valeur</translation>
    </message>
    <message>
        <source>Node</source>
        <translation>Nœud</translation>
    </message>
    <message>
        <source>Name</source>
        <translation>Nom</translation>
    </message>
    <message>
        <source>Op</source>
        <translation>Opérateur</translation>
    </message>
    <message>
        <source>Category</source>
        <translation>Catégorie</translation>
    </message>
    <message>
        <source>Stage</source>
        <translation>Étape</translation>
    </message>
    <message>
        <source>MACs</source>
        <translation>MAC</translation>
    </message>
    <message>
        <source>Attributes</source>
        <translation>Attributs</translation>
    </message>
    <message>
        <source>Inputs</source>
        <translation>Entrées</translation>
    </message>
    <message>
        <source>%1  (constant)</source>
        <translation>%1  (constante)</translation>
    </message>
    <message>
        <source>Weight statistics</source>
        <translation>Statistiques des poids</translation>
    </message>
    <message>
        <source>Outputs</source>
        <translation>Sorties</translation>
    </message>
    <message>
        <source>Kernel library</source>
        <translation>Bibliothèque de noyaux</translation>
    </message>
    <message>
        <source>Library</source>
        <translation>Bibliothèque</translation>
    </message>
    <message>
        <source>Why</source>
        <translation>Pourquoi</translation>
    </message>
    <message>
        <source>Provenance (original ONNX nodes)</source>
        <translation>Provenance (nœuds ONNX d&apos;origine)</translation>
    </message>
    <message>
        <source>(none recorded)</source>
        <translation>(aucune enregistrée)</translation>
    </message>
    <message>
        <source>%1  (of the fused node %2)</source>
        <translation>%1  (du nœud fusionné %2)</translation>
    </message>
    <message>
        <source>(no figure for this node)</source>
        <translation>(aucune mesure pour ce nœud)</translation>
    </message>
    <message>
        <source>Layer figures</source>
        <translation>Chiffres de la couche</translation>
    </message>
    <message>
        <source>ONNX Runtime partition</source>
        <translation>Partition ONNX Runtime</translation>
    </message>
    <message>
        <source>Ran in</source>
        <translation>Exécuté dans</translation>
    </message>
    <message>
        <source>Subgraph model: %1</source>
        <translation>Modèle du sous-graphe : %1</translation>
    </message>
    <message>
        <source>Subgraphs in the run</source>
        <translation>Sous-graphes de l&apos;exécution</translation>
    </message>
    <message>
        <source>Folded module</source>
        <translation>Module replié</translation>
    </message>
    <message>
        <source>Nodes</source>
        <translation>Nœuds</translation>
    </message>
    <message>
        <source>Ops</source>
        <translation>Opérateurs</translation>
    </message>
    <message>
        <source>Nodes in the module (expand it from its menu)</source>
        <translation>Nœuds du module (dépliez-le depuis son menu)</translation>
    </message>
    <message>
        <source>Inside</source>
        <translation>Dans</translation>
    </message>
    <message>
        <source>Bodies</source>
        <translation>Corps</translation>
    </message>
    <message>
        <source>%1 (double-click the node to open)</source>
        <translation>%1 (double-cliquez sur le nœud pour l&apos;ouvrir)</translation>
    </message>
    <message>
        <source>%1 instructions</source>
        <translation>%1 instructions</translation>
    </message>
    <message>
        <source>%1 ns</source>
        <translation>%1 ns</translation>
    </message>
    <message>
        <source>%1 µs</source>
        <translation>%1 µs</translation>
    </message>
    <message>
        <source>%1 ms</source>
        <translation>%1 ms</translation>
    </message>
    <message>
        <source>Measurement (library auto)</source>
        <translation>Mesure (bibliothèque auto)</translation>
    </message>
    <message>
        <source>Chosen</source>
        <translation>Choisie</translation>
    </message>
    <message>
        <source>not a candidate: %1</source>
        <translation>pas candidate : %1</translation>
    </message>
    <message>
        <source>cached</source>
        <translation>en cache</translation>
    </message>
    <message>
        <source>measured</source>
        <translation>mesuré</translation>
    </message>
    <message>
        <source>%1 + %2 layout conversion = %3 (%4)</source>
        <translation>%1 + %2 de conversion de disposition = %3 (%4)</translation>
    </message>
    <message>
        <source>%1 (%2)</source>
        <translation>%1 (%2)</translation>
    </message>
    <message>
        <source>Measured on</source>
        <translation>Mesuré sur</translation>
    </message>
    <message>
        <source>%1, %2</source>
        <translation>%1, %2</translation>
    </message>
    <message>
        <source>wall clock</source>
        <translation>temps réel</translation>
    </message>
    <message>
        <source>retired instructions</source>
        <translation>instructions exécutées</translation>
    </message>
    <message>
        <source>Signature</source>
        <translation>Signature</translation>
    </message>
</context>
<context>
    <name>embark::ui::QuantErrorChart</name>
    <message>
        <source>Per-layer quantization error</source>
        <translation>Erreur de quantification par couche</translation>
    </message>
    <message>
        <source>Open quantized model</source>
        <translation>Ouvrir le modèle quantifié</translation>
    </message>
    <message>
        <source>Open the quantized model as the studio&apos;s model (to inspect or export it)</source>
        <translation>Ouvrir le modèle quantifié comme modèle du studio (pour l&apos;inspecter ou l&apos;exporter)</translation>
    </message>
    <message>
        <source>SNR against the float model (dB, higher is better)</source>
        <translation>SNR par rapport au modèle float (dB, plus il est élevé, mieux c&apos;est)</translation>
    </message>
    <message>
        <source>Quantize the model (Model &gt; Quantize...) to see each layer&apos;s quantization error.</source>
        <translation>Quantifiez le modèle (Modèle &gt; Quantifier…) pour voir l&apos;erreur de quantification de chaque couche.</translation>
    </message>
    <message>
        <source>Select &apos;%1&apos; in the graph</source>
        <translation>Sélectionner « %1 » dans le graphe</translation>
    </message>
    <message>
        <source>Keep &apos;%1&apos; in float and quantize again</source>
        <translation>Garder « %1 » en float et quantifier à nouveau</translation>
    </message>
    <message>
        <source>&lt;br&gt;&lt;i&gt;%1&lt;/i&gt;: SNR %2 dB, cosine %3, max error %4%5</source>
        <translation>&lt;br&gt;&lt;i&gt;%1&lt;/i&gt; : SNR %2 dB, cosinus %3, erreur max %4%5</translation>
    </message>
    <message>
        <source> (kept in float)</source>
        <translation> (gardé en float)</translation>
    </message>
    <message>
        <source>&lt;br&gt;&lt;b&gt;lowest SNR&lt;/b&gt;</source>
        <translation>&lt;br&gt;&lt;b&gt;SNR le plus bas&lt;/b&gt;</translation>
    </message>
    <message>
        <source>&lt;br&gt;&lt;b&gt;SNR first falls steeply here&lt;/b&gt; (more than %1 dB below its inputs&apos;)</source>
        <translation>&lt;br&gt;&lt;b&gt;Le SNR chute fortement ici pour la première fois&lt;/b&gt; (plus de %1 dB sous celui de ses entrées)</translation>
    </message>
    <message>
        <source>&lt;br&gt;&lt;i&gt;click to select it in the graph; right-click to keep it in float&lt;/i&gt;</source>
        <translation>&lt;br&gt;&lt;i&gt;cliquez pour le sélectionner dans le graphe ; clic droit pour le garder en float&lt;/i&gt;</translation>
    </message>
    <message>
        <source>lowest SNR: %1</source>
        <translation>SNR le plus bas : %1</translation>
    </message>
    <message>
        <source>, float</source>
        <translation>, float</translation>
    </message>
    <message>
        <source>, SNR drop starts here</source>
        <translation>, la chute du SNR commence ici</translation>
    </message>
    <message numerus="yes">
        <source>%n quantized layer(s); lowest SNR %1 dB at %2</source>
        <translation>
            <numerusform>%n couche quantifiée ; SNR le plus bas : %1 dB sur %2</numerusform>
            <numerusform>%n couches quantifiées ; SNR le plus bas : %1 dB sur %2</numerusform>
        </translation>
    </message>
    <message>
        <source>Lowest SNR %1 dB before, %2 dB now (at %3)</source>
        <translation>SNR le plus bas : %1 dB avant, %2 dB maintenant (sur %3)</translation>
    </message>
</context>
<context>
    <name>embark::ui::QuantizeDialog</name>
    <message>
        <source>Quantize %1</source>
        <translation>Quantifier %1</translation>
    </message>
    <message>
        <source>test_data_set_N folders (input_K.pb), a folder of them, or .npy/.pb files and PNG/JPEG images (one sample each, folders searched with their subfolders)</source>
        <translation>Dossiers test_data_set_N (input_K.pb), un dossier qui les contient, ou fichiers .npy/.pb et images PNG/JPEG (un échantillon chacun ; les dossiers sont parcourus avec leurs sous-dossiers)</translation>
    </message>
    <message>
        <source>Add folder...</source>
        <translation>Ajouter un dossier...</translation>
    </message>
    <message>
        <source>Add files...</source>
        <translation>Ajouter des fichiers...</translation>
    </message>
    <message>
        <source>Remove</source>
        <translation>Retirer</translation>
    </message>
    <message>
        <source>minmax (the full range seen)</source>
        <translation>minmax (toute la plage observée)</translation>
    </message>
    <message>
        <source>percentile (cut the extreme values)</source>
        <translation>percentile (écarte les valeurs extrêmes)</translation>
    </message>
    <message>
        <source>entropy (KL divergence, as TensorRT)</source>
        <translation>entropy (divergence KL, comme TensorRT)</translation>
    </message>
    <message>
        <source>Share of the values the percentile method keeps</source>
        <translation>Part des valeurs conservées par la méthode percentile</translation>
    </message>
    <message>
        <source>e.g. Gemm, MatMul</source>
        <translation>p. ex. Gemm, MatMul</translation>
    </message>
    <message>
        <source>ONNX op types whose nodes stay in float (comma-separated)</source>
        <translation>Types d&apos;opération ONNX dont les nœuds restent en float (séparés par des virgules)</translation>
    </message>
    <message>
        <source>node names, comma-separated</source>
        <translation>noms de nœuds, séparés par des virgules</translation>
    </message>
    <message>
        <source>Nodes that stay in float; right-click a node in the graph for &apos;Keep in float&apos;</source>
        <translation>Nœuds qui restent en float ; clic droit sur un nœud du graphe pour « Garder en float »</translation>
    </message>
    <message>
        <source>Browse...</source>
        <translation>Parcourir...</translation>
    </message>
    <message>
        <source>WxH or N</source>
        <translation>LxH ou N</translation>
    </message>
    <message>
        <source>Images (PNG, JPEG) only. Resize: WxH stretches, N scales the short side to N and crops the centre. Pixels are scaled to [0,1], then (x - mean) / std, one value or one per channel (e.g. 0.485,0.456,0.406 and 0.229,0.224,0.225). Layout: the model input&apos;s.</source>
        <translation>Images (PNG, JPEG) uniquement. Taille : LxH étire l&apos;image, N ramène le petit côté à N et recadre au centre. Les pixels sont ramenés dans [0,1], puis (x - moyenne) / écart-type, avec une valeur ou une par canal (p. ex. 0.485,0.456,0.406 et 0.229,0.224,0.225). Disposition : celle de l&apos;entrée du modèle.</translation>
    </message>
    <message>
        <source>resize</source>
        <translation>taille</translation>
    </message>
    <message>
        <source>mean</source>
        <translation>moyenne</translation>
    </message>
    <message>
        <source>std</source>
        <translation>écart-type</translation>
    </message>
    <message>
        <source>Quantize</source>
        <translation>Quantifier</translation>
    </message>
    <message>
        <source>Calibration data:</source>
        <translation>Données de calibration :</translation>
    </message>
    <message>
        <source>Images:</source>
        <translation>Images :</translation>
    </message>
    <message>
        <source>Method:</source>
        <translation>Méthode :</translation>
    </message>
    <message>
        <source>Percentile:</source>
        <translation>Percentile :</translation>
    </message>
    <message>
        <source>Keep op types in float:</source>
        <translation>Types d&apos;opération gardés en float :</translation>
    </message>
    <message>
        <source>Keep nodes in float:</source>
        <translation>Nœuds gardés en float :</translation>
    </message>
    <message>
        <source>Output model:</source>
        <translation>Modèle de sortie :</translation>
    </message>
    <message>
        <source>Calibration folder</source>
        <translation>Dossier de calibration</translation>
    </message>
    <message>
        <source>Calibration tensors</source>
        <translation>Tenseurs de calibration</translation>
    </message>
    <message>
        <source>Tensors and images (*.npy *.pb *.png *.jpg *.jpeg)</source>
        <translation>Tenseurs et images (*.npy *.pb *.png *.jpg *.jpeg)</translation>
    </message>
    <message>
        <source>Resize &apos;%1&apos;: give WxH (e.g. 224x224) or N (e.g. 256), positive integers.</source>
        <translation>Taille « %1 » : indiquez LxH (p. ex. 224x224) ou N (p. ex. 256), en entiers positifs.</translation>
    </message>
    <message>
        <source>Mean &apos;%1&apos;: give one number or one per channel, e.g. 0.485,0.456,0.406.</source>
        <translation>Moyenne « %1 » : indiquez un nombre, ou un par canal, p. ex. 0.485,0.456,0.406.</translation>
    </message>
    <message>
        <source>Std &apos;%1&apos;: give one number or one per channel, e.g. 0.229,0.224,0.225.</source>
        <translation>Écart-type « %1 » : indiquez un nombre, ou un par canal, p. ex. 0.229,0.224,0.225.</translation>
    </message>
    <message>
        <source>Std values must be greater than 0.</source>
        <translation>Les valeurs d&apos;écart-type doivent être supérieures à 0.</translation>
    </message>
    <message>
        <source>Quantized model</source>
        <translation>Modèle quantifié</translation>
    </message>
    <message>
        <source>ONNX models (*.onnx)</source>
        <translation>Modèles ONNX (*.onnx)</translation>
    </message>
    <message>
        <source>Add calibration data: a test_data_set_N folder, a folder of them, .npy files or images. Quantization needs sample inputs to measure each activation&apos;s range.</source>
        <translation>Ajoutez des données de calibration : un dossier test_data_set_N, un dossier qui en contient, des fichiers .npy ou des images. La quantification a besoin d&apos;entrées d&apos;exemple pour mesurer la plage de chaque activation.</translation>
    </message>
    <message>
        <source>The calibration source %1 does not exist.</source>
        <translation>La source de calibration %1 n&apos;existe pas.</translation>
    </message>
    <message>
        <source>&apos;%1&apos; is not an ONNX op type Embark knows (e.g. Conv, Gemm).</source>
        <translation>« %1 » n&apos;est pas un type d&apos;opération ONNX connu d&apos;Embark (p. ex. Conv, Gemm).</translation>
    </message>
    <message>
        <source>The model has no node named &apos;%1&apos;.</source>
        <translation>Le modèle n&apos;a aucun nœud nommé « %1 ».</translation>
    </message>
    <message>
        <source>Choose the output file of the quantized model.</source>
        <translation>Choisissez le fichier de sortie du modèle quantifié.</translation>
    </message>
    <message>
        <source>The output would replace the float model: choose another file.</source>
        <translation>La sortie remplacerait le modèle float : choisissez un autre fichier.</translation>
    </message>
    <message>
        <source>The folder of %1 does not exist.</source>
        <translation>Le dossier de %1 n&apos;existe pas.</translation>
    </message>
</context>
<context>
    <name>embark::ui::RunBanner</name>
    <message>
        <source>Back to the live model</source>
        <translation>Retour au modèle ouvert</translation>
    </message>
    <message>
        <source>Empty the charts and show the open model&apos;s own colours again</source>
        <translation>Vider les graphiques et revenir aux couleurs du modèle ouvert</translation>
    </message>
    <message>
        <source>Charts and colours show %1</source>
        <translation>Graphiques et couleurs : %1</translation>
    </message>
    <message>
        <source>Charts show %1, a model that is not open (the graph keeps its own colours)</source>
        <translation>Graphiques : %1, un modèle qui n&apos;est pas ouvert (le graphe garde ses couleurs)</translation>
    </message>
</context>
<context>
    <name>embark::ui::RunComparisonChart</name>
    <message>
        <source>Run comparison</source>
        <translation>Comparaison des exécutions</translation>
    </message>
    <message>
        <source>Total latency (mean, 95% CI)</source>
        <translation>Latence totale (moyenne, IC à 95 %)</translation>
    </message>
    <message>
        <source>Per-layer delta against the first run</source>
        <translation>Écart par couche par rapport à la première exécution</translation>
    </message>
    <message>
        <source>Show:</source>
        <translation>Afficher :</translation>
    </message>
    <message>
        <source>latency (ms)</source>
        <translation>latence (ms)</translation>
    </message>
    <message>
        <source>Select two or more runs in the Run history (Alt+4) and choose Compare.</source>
        <translation>Sélectionnez deux exécutions ou plus dans l&apos;historique (Alt+4) et choisissez Comparer.</translation>
    </message>
    <message>
        <source>Warning: these runs are of different models (%1); per-layer deltas only match layers by name.</source>
        <translation>Attention : ces exécutions portent sur des modèles différents (%1) ; les écarts par couche n&apos;apparient les couches que par leur nom.</translation>
    </message>
    <message>
        <source> (baseline)</source>
        <translation> (référence)</translation>
    </message>
    <message>
        <source>time difference against %1 (ms)</source>
        <translation>écart de temps par rapport à %1 (ms)</translation>
    </message>
    <message>
        <source>%1 minus %2</source>
        <translation>%1 moins %2</translation>
    </message>
    <message numerus="yes">
        <source>&lt;b&gt;%1&lt;/b&gt;%2&lt;br&gt;mean %3 ms ± %4 ms (95% CI) over %n iteration(s)</source>
        <translation>
            <numerusform>&lt;b&gt;%1&lt;/b&gt;%2&lt;br&gt;moyenne %3 ms ± %4 ms (IC à 95 %) sur %n itération</numerusform>
            <numerusform>&lt;b&gt;%1&lt;/b&gt;%2&lt;br&gt;moyenne %3 ms ± %4 ms (IC à 95 %) sur %n itérations</numerusform>
        </translation>
    </message>
    <message>
        <source>not in this run</source>
        <translation>absent de cette exécution</translation>
    </message>
    <message>
        <source>%1 ms (%2)</source>
        <translation>%1 ms (%2)</translation>
    </message>
    <message>
        <source>, %1%2 ms</source>
        <translation>, %1%2 ms</translation>
    </message>
    <message>
        <source>%1× faster</source>
        <translation>%1× plus rapide</translation>
    </message>
    <message>
        <source>%1× slower</source>
        <translation>%1× plus lent</translation>
    </message>
</context>
<context>
    <name>embark::ui::RunHistoryPanel</name>
    <message>
        <source>part of the model path, or its SHA-256</source>
        <translation>une partie du chemin du modèle, ou son SHA-256</translation>
    </message>
    <message>
        <source>From:</source>
        <translation>Du :</translation>
    </message>
    <message>
        <source>To:</source>
        <translation>Au :</translation>
    </message>
    <message>
        <source>Date</source>
        <translation>Date</translation>
    </message>
    <message>
        <source>Model</source>
        <translation>Modèle</translation>
    </message>
    <message>
        <source>Board</source>
        <translation>Carte</translation>
    </message>
    <message>
        <source>Library</source>
        <translation>Bibliothèque</translation>
    </message>
    <message>
        <source>Threads</source>
        <translation>Threads</translation>
    </message>
    <message>
        <source>Median (ms)</source>
        <translation>Médiane (ms)</translation>
    </message>
    <message>
        <source>Status</source>
        <translation>État</translation>
    </message>
    <message>
        <source>&amp;Refresh</source>
        <translation>&amp;Actualiser</translation>
    </message>
    <message>
        <source>&amp;Open</source>
        <translation>&amp;Ouvrir</translation>
    </message>
    <message>
        <source>Show the selected run&apos;s timings, accuracy and latency distribution</source>
        <translation>Afficher les temps, la précision et la distribution des latences de l&apos;exécution sélectionnée</translation>
    </message>
    <message>
        <source>&amp;Compare</source>
        <translation>&amp;Comparer</translation>
    </message>
    <message>
        <source>Compare two or more selected runs: totals with confidence intervals and per-layer deltas</source>
        <translation>Comparer au moins deux exécutions sélectionnées : totaux avec intervalles de confiance et écarts par couche</translation>
    </message>
    <message>
        <source>&amp;Delete...</source>
        <translation>&amp;Supprimer...</translation>
    </message>
    <message>
        <source>Model:</source>
        <translation>Modèle :</translation>
    </message>
    <message>
        <source>Board:</source>
        <translation>Carte :</translation>
    </message>
    <message>
        <source>Library:</source>
        <translation>Bibliothèque :</translation>
    </message>
    <message>
        <source>Cannot open the run history: %1</source>
        <translation>Impossible d&apos;ouvrir l&apos;historique des exécutions : %1</translation>
    </message>
    <message>
        <source>All boards</source>
        <translation>Toutes les cartes</translation>
    </message>
    <message>
        <source>All libraries</source>
        <translation>Toutes les bibliothèques</translation>
    </message>
    <message>
        <source>Cannot read the run history: %1</source>
        <translation>Impossible de lire l&apos;historique des exécutions : %1</translation>
    </message>
    <message>
        <source>ok</source>
        <translation>ok</translation>
    </message>
    <message>
        <source>failed</source>
        <translation>échec</translation>
    </message>
    <message numerus="yes">
        <source>%n run(s) in %1</source>
        <translation>
            <numerusform>%n exécution dans %1</numerusform>
            <numerusform>%n exécutions dans %1</numerusform>
        </translation>
    </message>
    <message>
        <source>Cannot open run #%1: %2</source>
        <translation>Impossible d&apos;ouvrir l&apos;exécution #%1 : %2</translation>
    </message>
    <message>
        <source>Showing %1</source>
        <translation>Affichage de %1</translation>
    </message>
    <message>
        <source>a real difference (95% intervals do not overlap)</source>
        <translation>une différence réelle (les intervalles à 95 % ne se chevauchent pas)</translation>
    </message>
    <message>
        <source>within noise (95% intervals overlap)</source>
        <translation>dans le bruit (les intervalles à 95 % se chevauchent)</translation>
    </message>
    <message numerus="yes">
        <source>Comparing %n run(s)</source>
        <translation>
            <numerusform>Comparaison de %n exécution</numerusform>
            <numerusform>Comparaison de %n exécutions</numerusform>
        </translation>
    </message>
    <message>
        <source>Delete runs</source>
        <translation>Supprimer des exécutions</translation>
    </message>
    <message numerus="yes">
        <source>Delete %n run(s) from %1? This cannot be undone.</source>
        <translation>
            <numerusform>Supprimer %n exécution de %1 ? Cette action est irréversible.</numerusform>
            <numerusform>Supprimer %n exécutions de %1 ? Cette action est irréversible.</numerusform>
        </translation>
    </message>
    <message>
        <source>Cannot delete run #%1: %2</source>
        <translation>Impossible de supprimer l&apos;exécution #%1 : %2</translation>
    </message>
    <message>
        <source>Run</source>
        <translation>Exécution</translation>
    </message>
    <message>
        <source>Run id: embark-cli runs show %1</source>
        <translation>Identifiant : embark-cli runs show %1</translation>
    </message>
    <message>
        <source>Warning: these runs are of different models (%1): their timings are not comparable.</source>
        <translation>Attention : ces exécutions portent sur des modèles différents (%1) : leurs temps ne sont pas comparables.</translation>
    </message>
    <message>
        <source>#%1 against #%2 (baseline): median #%2 %3 ms -&gt; #%1 %4 ms (x%5), %6</source>
        <translation>n°%1 par rapport à n°%2 (référence) : médiane n°%2 %3 ms -&gt; n°%1 %4 ms (x%5), %6</translation>
    </message>
    <message>
        <source>Run id, as embark-cli runs show ID names it</source>
        <translation>Numéro d’exécution, tel que embark-cli runs show ID le nomme</translation>
    </message>
    <message>
        <source>Median latency in milliseconds</source>
        <translation>Latence médiane en millisecondes</translation>
    </message>
    <message>
        <source>Export &amp;report...</source>
        <translation>Exporter le &amp;rapport...</translation>
    </message>
    <message>
        <source>Write the selected run&apos;s report (or two runs&apos; comparison) as one HTML or PDF file: board, latency, plan, slowest layers, accuracy and charts</source>
        <translation>Écrire le rapport de l’exécution sélectionnée (ou la comparaison de deux exécutions) en un seul fichier HTML ou PDF : carte, latence, plan, couches les plus lentes, précision et graphiques</translation>
    </message>
    <message>
        <source>Select one run, or two runs to compare, for a report.</source>
        <translation>Sélectionnez une exécution, ou deux à comparer, pour un rapport.</translation>
    </message>
    <message>
        <source>Export report</source>
        <translation>Exporter le rapport</translation>
    </message>
    <message>
        <source>HTML report (*.html);;PDF report (*.pdf)</source>
        <translation>Rapport HTML (*.html);;Rapport PDF (*.pdf)</translation>
    </message>
    <message>
        <source>No report written: %1</source>
        <translation>Aucun rapport écrit : %1</translation>
    </message>
    <message>
        <source>Report written to %1</source>
        <translation>Rapport écrit dans %1</translation>
    </message>
    <message>
        <source>Embark export</source>
        <translation>Export Embark</translation>
    </message>
    <message>
        <source>ONNX Runtime</source>
        <translation>ONNX Runtime</translation>
    </message>
    <message>
        <source>ONNX Runtime (ep %1)</source>
        <translation>ONNX Runtime (EP %1)</translation>
    </message>
    <message>
        <source>Diff &amp;plans</source>
        <translation>Comparer les &amp;plans</translation>
    </message>
    <message>
        <source>Show two selected runs&apos; plans side by side: nodes added, removed, fused differently or re-assigned to another kernel library or layout</source>
        <translation>Afficher côte à côte les plans de deux exécutions sélectionnées : nœuds ajoutés, supprimés, fusionnés autrement ou réaffectés à une autre bibliothèque de noyaux ou disposition</translation>
    </message>
    <message>
        <source>Runtime: #%1 %2, #%3 %4</source>
        <translation>Environnement d&apos;exécution : #%1 %2, #%3 %4</translation>
    </message>
    <message>
        <source>%1 %2 -&gt; %3</source>
        <translation>%1 %2 -&gt; %3</translation>
    </message>
    <message>
        <source>(not set)</source>
        <translation>(non défini)</translation>
    </message>
    <message>
        <source>EP options that differ, #%1 -&gt; #%2: %3</source>
        <translation>Options de l&apos;EP qui diffèrent, #%1 -&gt; #%2 : %3</translation>
    </message>
    <message>
        <source>EP options of #%1 and #%2: the same</source>
        <translation>Options de l&apos;EP de #%1 et #%2 : identiques</translation>
    </message>
    <message>
        <source>Select two runs to diff their plans.</source>
        <translation>Sélectionnez deux exécutions pour comparer leurs plans.</translation>
    </message>
    <message>
        <source>Cannot read the plan of run #%1: %2</source>
        <translation>Impossible de lire le plan de l&apos;exécution #%1 : %2</translation>
    </message>
    <message>
        <source>Run #%1 has no stored plan (ONNX Runtime runs, and runs stored by an older Embark, have none): benchmark the export again to diff its plan.</source>
        <translation>L&apos;exécution #%1 n&apos;a pas de plan enregistré (les exécutions ONNX Runtime et celles enregistrées par un Embark plus ancien n&apos;en ont pas) : relancez le benchmark de l&apos;export pour comparer son plan.</translation>
    </message>
    <message>
        <source>cancelled</source>
        <translation>annulée</translation>
    </message>
    <message>
        <source>%1 %2: %3</source>
        <translation>%1 %2 : %3</translation>
    </message>
    <message>
        <source>LAVA &amp;job</source>
        <translation>&amp;Tâche LAVA</translation>
    </message>
    <message>
        <source>Open the LAVA job page of the selected run on a farm board in the browser</source>
        <translation>Ouvrir dans le navigateur la page de la tâche LAVA de l’exécution sélectionnée sur une carte de ferme</translation>
    </message>
    <message>
        <source>More</source>
        <translation>Plus</translation>
    </message>
    <message>
        <source>Export report, LAVA job, Delete</source>
        <translation>Exporter le rapport, tâche LAVA, supprimer</translation>
    </message>
    <message>
        <source>Cannot open %1: no browser is set up to open web pages</source>
        <translation>Impossible d’ouvrir %1 : aucun navigateur n’est configuré pour ouvrir les pages web</translation>
    </message>
</context>
<context>
    <name>embark::ui::SecretPrompt</name>
    <message>
        <source>SSH authentication</source>
        <translation>Authentification SSH</translation>
    </message>
    <message>
        <source>Embark does not store it. To avoid this question, install your public key on the board (ssh-copy-id).</source>
        <translation>Embark ne l&apos;enregistre pas. Pour ne plus avoir cette question, installez votre clé publique sur la carte (ssh-copy-id).</translation>
    </message>
</context>
<context>
    <name>embark::ui::ShortcutsDialog</name>
    <message>
        <source>Keyboard shortcuts</source>
        <translation>Raccourcis clavier</translation>
    </message>
    <message>
        <source>Graph</source>
        <translation>Graphe</translation>
    </message>
    <message>
        <source>Zoom at the cursor</source>
        <translation>Zoomer sous le curseur</translation>
    </message>
    <message>
        <source>Mouse wheel</source>
        <translation>Molette de la souris</translation>
    </message>
    <message>
        <source>Pan</source>
        <translation>Déplacer la vue</translation>
    </message>
    <message>
        <source>Drag the background</source>
        <translation>Faire glisser le fond</translation>
    </message>
    <message>
        <source>Next match of the search</source>
        <translation>Résultat suivant de la recherche</translation>
    </message>
    <message>
        <source>Enter in the find box</source>
        <translation>Entrée dans le champ de recherche</translation>
    </message>
    <message>
        <source>Run a node on another kernel library</source>
        <translation>Exécuter un nœud avec une autre bibliothèque de noyaux</translation>
    </message>
    <message>
        <source>Right-click the node</source>
        <translation>Clic droit sur le nœud</translation>
    </message>
    <message>
        <source>Menu</source>
        <translation>Menu</translation>
    </message>
    <message>
        <source>Action</source>
        <translation>Action</translation>
    </message>
    <message>
        <source>Shortcut</source>
        <translation>Raccourci</translation>
    </message>
</context>
<context>
    <name>embark::ui::SourceViewer</name>
    <message>
        <source>Source</source>
        <translation>Source</translation>
    </message>
    <message>
        <source>Cannot read &apos;%1&apos;: %2</source>
        <translation>Impossible de lire « %1 » : %2</translation>
    </message>
    <message>
        <source>%1:%2 (read-only)</source>
        <translation>%1:%2 (lecture seule)</translation>
    </message>
    <message>
        <source>%1 has no line %2 (it has %3).</source>
        <translation>%1 n&apos;a pas de ligne %2 (il en a %3).</translation>
    </message>
</context>
<context>
    <name>embark::ui::SshSettingsDialog</name>
    <message>
        <source>SSH connection of %1</source>
        <translation>Connexion SSH de %1</translation>
    </message>
    <message>
        <source>host name, address or ~/.ssh/config alias</source>
        <translation>nom d&apos;hôte, adresse ou alias de ~/.ssh/config</translation>
    </message>
    <message>
        <source>from ~/.ssh/config, else your user name</source>
        <translation>de ~/.ssh/config, sinon votre nom d&apos;utilisateur</translation>
    </message>
    <message>
        <source>from ~/.ssh/config, else 22</source>
        <translation>de ~/.ssh/config, sinon 22</translation>
    </message>
    <message>
        <source>SSH agent and default keys</source>
        <translation>agent SSH et clés par défaut</translation>
    </message>
    <message>
        <source>Browse...</source>
        <translation>Parcourir...</translation>
    </message>
    <message>
        <source>Test connection</source>
        <translation>Tester la connexion</translation>
    </message>
    <message>
        <source>This board runs locally now. Saving makes it run over SSH (its exec prefix, if any, is kept and runs on the remote machine).</source>
        <translation>Cette carte s&apos;exécute actuellement en local. L&apos;enregistrer la fait passer par SSH (son préfixe d&apos;exécution éventuel est conservé et s&apos;exécute sur la machine distante).</translation>
    </message>
    <message>
        <source>Host:</source>
        <translation>Hôte :</translation>
    </message>
    <message>
        <source>User:</source>
        <translation>Utilisateur :</translation>
    </message>
    <message>
        <source>Port:</source>
        <translation>Port :</translation>
    </message>
    <message>
        <source>Key file:</source>
        <translation>Fichier de clé :</translation>
    </message>
    <message>
        <source>Private key</source>
        <translation>Clé privée</translation>
    </message>
    <message>
        <source>Host: enter a host name, an address or an ~/.ssh/config alias.</source>
        <translation>Hôte : saisissez un nom d&apos;hôte, une adresse ou un alias de ~/.ssh/config.</translation>
    </message>
    <message>
        <source>Connecting to %1...</source>
        <translation>Connexion à %1...</translation>
    </message>
    <message>
        <source>Connected: %1</source>
        <translation>Connecté : %1</translation>
    </message>
    <message>
        <source>Connection failed: %1</source>
        <translation>Échec de la connexion : %1</translation>
    </message>
</context>
<context>
    <name>embark::ui::StagesView</name>
    <message>
        <source>Before:</source>
        <translation>Avant :</translation>
    </message>
    <message>
        <source>After:</source>
        <translation>Après :</translation>
    </message>
    <message>
        <source>Rewrites made by the &quot;after&quot; stage:</source>
        <translation>Réécritures faites par l&apos;étape « après » :</translation>
    </message>
    <message>
        <source>%1 (%2 nodes, %3 rewrites)</source>
        <translation>%1 (%2 nœuds, %3 réécritures)</translation>
    </message>
    <message>
        <source>(no rewrites in this stage)</source>
        <translation>(aucune réécriture à cette étape)</translation>
    </message>
    <message>
        <source>Click a rewrite to highlight its nodes in both graphs</source>
        <translation>Cliquez sur une réécriture pour mettre en évidence ses nœuds dans les deux graphes</translation>
    </message>
    <message>
        <source>Colour: op category / library</source>
        <translation>Couleur : catégorie d’op / bibliothèque</translation>
    </message>
    <message>
        <source>Colour: layer time</source>
        <translation>Couleur : temps par couche</translation>
    </message>
    <message>
        <source>Colour: layer error (max_rel)</source>
        <translation>Couleur : erreur par couche (max_rel)</translation>
    </message>
    <message>
        <source>Colour: memory in use</source>
        <translation>Couleur : mémoire utilisée</translation>
    </message>
    <message>
        <source>Colour: changes between the stages</source>
        <translation>Couleur : changements entre les étapes</translation>
    </message>
    <message>
        <source>time (ms)</source>
        <translation>temps (ms)</translation>
    </message>
    <message>
        <source>error (max_rel)</source>
        <translation>erreur (max_rel)</translation>
    </message>
    <message>
        <source>memory in use</source>
        <translation>mémoire utilisée</translation>
    </message>
    <message>
        <source>No graph to fold</source>
        <translation>Aucun graphe à replier</translation>
    </message>
    <message>
        <source>Fold &apos;%1&apos;</source>
        <translation>Replier « %1 »</translation>
    </message>
    <message>
        <source>Expand all modules</source>
        <translation>Déplier tous les modules</translation>
    </message>
    <message>
        <source>Needs a memory plan (choose a board and library)</source>
        <translation>Nécessite un plan mémoire (choisissez une carte et une bibliothèque)</translation>
    </message>
    <message>
        <source>Needs a run: benchmark the model, or open a run in Run history</source>
        <translation>Nécessite une exécution : mesurez le modèle, ou ouvrez une exécution dans l’historique</translation>
    </message>
    <message>
        <source>added</source>
        <translation>ajouté</translation>
    </message>
    <message>
        <source>removed</source>
        <translation>supprimé</translation>
    </message>
    <message>
        <source>fused into a block</source>
        <translation>fusionné dans un bloc</translation>
    </message>
    <message>
        <source>rewritten (other op)</source>
        <translation>réécrit (autre op)</translation>
    </message>
    <message>
        <source>unchanged</source>
        <translation>inchangé</translation>
    </message>
    <message>
        <source>Changes made by the &quot;after&quot; stage (to this stage&apos;s nodes)</source>
        <translation>Changements faits par l’étape « après » (aux nœuds de cette étape)</translation>
    </message>
    <message>
        <source>Changes from the &quot;before&quot; stage</source>
        <translation>Changements depuis l’étape « avant »</translation>
    </message>
    <message>
        <source>Colour: ONNX Runtime partitions</source>
        <translation>Couleur : partitions ONNX Runtime</translation>
    </message>
    <message>
        <source>What the node colours of both graphs show: the op category (the kernel library in the fused stage), the run shown&apos;s time or error per layer, or the bytes of the memory plan in use while each node runs (fused nodes carry their block&apos;s figure); or what the &quot;after&quot; stage changed: nodes added, removed, fused into a block or rewritten to another op; or, for an ONNX Runtime run with SPACEMIT_EP_DUMP_SUBGRAPHS=1, the EP subgraph each node ran in or the CPU provider it fell back to.</source>
        <translation>Ce que montrent les couleurs des nœuds des deux graphes : la catégorie d&apos;opération (la bibliothèque de noyaux dans l&apos;étape fusionnée), le temps ou l&apos;erreur par couche de l&apos;exécution affichée, ou les octets du plan mémoire utilisés pendant l&apos;exécution de chaque nœud (les nœuds fusionnés portent le chiffre de leur bloc) ; ou ce que l&apos;étape « après » a changé : nœuds ajoutés, supprimés, fusionnés dans un bloc ou réécrits en une autre opération ; ou, pour une exécution ONNX Runtime avec SPACEMIT_EP_DUMP_SUBGRAPHS=1, le sous-graphe de l&apos;EP où chaque nœud a tourné ou le fournisseur CPU sur lequel il s&apos;est rabattu.</translation>
    </message>
    <message>
        <source>Needs an ONNX Runtime run with SPACEMIT_EP_DUMP_SUBGRAPHS=1: open it in Run history</source>
        <translation>Nécessite une exécution ONNX Runtime avec SPACEMIT_EP_DUMP_SUBGRAPHS=1 : ouvrez-la dans l&apos;historique des exécutions</translation>
    </message>
    <message>
        <source>Colour: ONNX Runtime partitions (EP subgraphs: %1, nodes that fell back to the CPU provider: %2)</source>
        <translation>Couleur : partitions ONNX Runtime (sous-graphes de l&apos;EP : %1, nœuds rabattus sur le fournisseur CPU : %2)</translation>
    </message>
    <message>
        <source>Back</source>
        <translation>Retour</translation>
    </message>
    <message>
        <source>Back to the enclosing graph</source>
        <translation>Revenir au graphe englobant</translation>
    </message>
    <message>
        <source>The body shown; click a step to go back to it</source>
        <translation>Le corps affiché ; cliquez sur une étape pour y revenir</translation>
    </message>
    <message>
        <source>Graph</source>
        <translation>Graphe</translation>
    </message>
    <message>
        <source>Open body &apos;%1&apos;</source>
        <translation>Ouvrir le corps « %1 »</translation>
    </message>
    <message>
        <source>Expand &apos;%1&apos; one level</source>
        <translation>Déplier « %1 » d&apos;un niveau</translation>
    </message>
    <message>
        <source>Expand &apos;%1&apos; fully</source>
        <translation>Déplier « %1 » entièrement</translation>
    </message>
    <message>
        <source>Fold all blocks at this depth</source>
        <translation>Replier tous les blocs de cette profondeur</translation>
    </message>
    <message>
        <source>Depth %1, like &apos;%2&apos;</source>
        <translation>Profondeur %1, comme « %2 »</translation>
    </message>
</context>
<context>
    <name>embark::ui::StudioJobs</name>
    <message>
        <source>Jobs</source>
        <translation>Tâches</translation>
    </message>
    <message>
        <source>&amp;Run</source>
        <translation>&amp;Exécuter</translation>
    </message>
    <message>
        <source>&amp;Export...</source>
        <translation>&amp;Exporter...</translation>
    </message>
    <message>
        <source>Write the standalone C++ export for the chosen board and kernel library</source>
        <translation>Écrire l&apos;export C++ autonome pour la carte et la bibliothèque de noyaux choisies</translation>
    </message>
    <message>
        <source>&amp;Build</source>
        <translation>&amp;Compiler</translation>
    </message>
    <message>
        <source>Cross-compile the last export (exports the model first when needed)</source>
        <translation>Compiler de façon croisée le dernier export (exporte d&apos;abord le modèle si nécessaire)</translation>
    </message>
    <message>
        <source>&amp;Deploy and run once</source>
        <translation>&amp;Déployer et exécuter une fois</translation>
    </message>
    <message>
        <source>Upload the last build to the board and run it once</source>
        <translation>Envoyer la dernière compilation sur la carte et l&apos;exécuter une fois</translation>
    </message>
    <message>
        <source>Run &amp;benchmark</source>
        <translation>Lancer le &amp;banc d&apos;essai</translation>
    </message>
    <message>
        <source>Export, build, deploy and run on the chosen board, then show timings and accuracy (F5)</source>
        <translation>Exporter, compiler, déployer et exécuter sur la carte choisie, puis afficher les temps et la précision (F5)</translation>
    </message>
    <message>
        <source>&amp;Cancel all jobs</source>
        <translation>&amp;Annuler toutes les tâches</translation>
    </message>
    <message>
        <source>Run</source>
        <translation>Exécution</translation>
    </message>
    <message>
        <source>Open a model before exporting it.</source>
        <translation>Ouvrez un modèle avant de l&apos;exporter.</translation>
    </message>
    <message>
        <source>Folder to write the export into</source>
        <translation>Dossier où écrire l&apos;export</translation>
    </message>
    <message>
        <source>Replace export</source>
        <translation>Remplacer l&apos;export</translation>
    </message>
    <message>
        <source>%1 is not empty. Replace it with the new export?</source>
        <translation>%1 n&apos;est pas vide. Le remplacer par le nouvel export ?</translation>
    </message>
    <message>
        <source>Export %1 for %2 (%3)</source>
        <translation>Export de %1 pour %2 (%3)</translation>
    </message>
    <message>
        <source>Build %1</source>
        <translation>Compilation de %1</translation>
    </message>
    <message>
        <source>Deploy to %1</source>
        <translation>Déploiement sur %1</translation>
    </message>
    <message>
        <source>Open a model before running a benchmark.</source>
        <translation>Ouvrez un modèle avant de lancer un banc d&apos;essai.</translation>
    </message>
    <message>
        <source>Benchmark %1 on %2 (%3)</source>
        <translation>Banc d&apos;essai de %1 sur %2 (%3)</translation>
    </message>
    <message>
        <source>%1 finished: %2</source>
        <translation>%1 terminé : %2</translation>
    </message>
    <message>
        <source>%1 failed: %2</source>
        <translation>%1 a échoué : %2</translation>
    </message>
    <message>
        <source>%1 was cancelled.</source>
        <translation>%1 a été annulé.</translation>
    </message>
    <message>
        <source>Folder with the XNNPACK, cpuinfo, pthreadpool and FXdiv tarballs</source>
        <translation>Dossier contenant les archives de XNNPACK, cpuinfo, pthreadpool et FXdiv</translation>
    </message>
    <message>
        <source>Build XNNPACK for %1</source>
        <translation>Compiler XNNPACK pour %1</translation>
    </message>
    <message>
        <source>run #%1</source>
        <translation>exécution n°%1</translation>
    </message>
    <message numerus="yes">
        <source>run #%1, median %2 ms over %n iteration(s)</source>
        <translation>
            <numerusform>exécution n°%1, médiane %2 ms sur %n itération</numerusform>
            <numerusform>exécution n°%1, médiane %2 ms sur %n itérations</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>median %1 ms over %n iteration(s)</source>
        <translation>
            <numerusform>médiane %1 ms sur %n itération</numerusform>
            <numerusform>médiane %1 ms sur %n itérations</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n layer(s) written to %1</source>
        <translation>
            <numerusform>%n couche écrite dans %1</numerusform>
            <numerusform>%n couches écrites dans %1</numerusform>
        </translation>
    </message>
    <message>
        <source>%1 (%2, %3)</source>
        <translation>%1 (%2, %3)</translation>
    </message>
    <message>
        <source>Open a model before building it.</source>
        <translation>Ouvrez un modèle avant de le compiler.</translation>
    </message>
    <message>
        <source>Export and build %1 for %2</source>
        <translation>Exporter et compiler %1 pour %2</translation>
    </message>
    <message>
        <source>Build and deploy to %1</source>
        <translation>Compiler et déployer sur %1</translation>
    </message>
    <message>
        <source>Open a model before deploying it.</source>
        <translation>Ouvrez un modèle avant de le déployer.</translation>
    </message>
    <message>
        <source>ONNX Runtime</source>
        <translation>ONNX Runtime</translation>
    </message>
    <message numerus="yes">
        <source>%n layer(s) int8, %1 kept in float, written to %2</source>
        <translation>
            <numerusform>%n couche en int8, %1 gardée(s) en float, modèle écrit dans %2</numerusform>
            <numerusform>%n couches en int8, %1 gardée(s) en float, modèle écrit dans %2</numerusform>
        </translation>
    </message>
    <message>
        <source>%1 is already running.</source>
        <translation>%1 est déjà en cours.</translation>
    </message>
    <message>
        <source>%1 is no longer open: its run is in Run history</source>
        <translation>%1 n&apos;est plus ouvert : son exécution est dans l&apos;historique</translation>
    </message>
    <message>
        <source>%1 finished: %2 (%3)</source>
        <translation>%1 terminé : %2 (%3)</translation>
    </message>
    <message>
        <source>ran once: %1</source>
        <translation>exécuté une fois : %1</translation>
    </message>
    <message>
        <source>Cannot measure the kernel libraries: %1</source>
        <translation>Impossible de mesurer les bibliothèques de noyaux : %1</translation>
    </message>
    <message>
        <source>Measure kernel libraries: %1 on %2</source>
        <translation>Mesure des bibliothèques de noyaux : %1 sur %2</translation>
    </message>
    <message>
        <source>cancelled</source>
        <translation>annulée</translation>
    </message>
    <message numerus="yes">
        <source>%n node(s) measured (%1 now, %2 from the cache), %3 not on portable</source>
        <translation>
            <numerusform>%n nœud mesuré (%1 maintenant, %2 depuis le cache), %3 hors de portable</numerusform>
            <numerusform>%n nœuds mesurés (%1 maintenant, %2 depuis le cache), %3 hors de portable</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>embark::ui::StudioQuantize</name>
    <message>
        <source>%1 is already quantized: open its float model to quantize it, or use &apos;Keep in float&apos; on the Quantization chart.</source>
        <translation>%1 est déjà quantifié : ouvrez son modèle float pour le quantifier, ou utilisez « Garder en float » dans le graphique Quantification.</translation>
    </message>
    <message>
        <source>Quantization</source>
        <translation>Quantification</translation>
    </message>
    <message>
        <source>&amp;Model</source>
        <translation>&amp;Modèle</translation>
    </message>
    <message>
        <source>&amp;Quantize...</source>
        <translation>&amp;Quantifier…</translation>
    </message>
    <message>
        <source>Quantize the open float model to int8 (QDQ) on calibration data, as a background job</source>
        <translation>Quantifier en int8 (QDQ) le modèle float ouvert sur des données de calibration, en tâche de fond</translation>
    </message>
    <message>
        <source>&amp;Open quantized model</source>
        <translation>&amp;Ouvrir le modèle quantifié</translation>
    </message>
    <message>
        <source>Open a float model before quantizing it.</source>
        <translation>Ouvrez un modèle float avant de le quantifier.</translation>
    </message>
    <message>
        <source>Quantize %1 (%2)</source>
        <translation>Quantification de %1 (%2)</translation>
    </message>
    <message numerus="yes">
        <source>Quantize %1 (%2, %n node(s) in float)</source>
        <translation>
            <numerusform>Quantification de %1 (%2, %n nœud en float)</numerusform>
            <numerusform>Quantification de %1 (%2, %n nœuds en float)</numerusform>
        </translation>
    </message>
    <message>
        <source>Quantize the model first (Model &gt; Quantize...).</source>
        <translation>Quantifiez d&apos;abord le modèle (Modèle &gt; Quantifier…).</translation>
    </message>
    <message>
        <source>&apos;%1&apos; is not a layer quantization makes int8 (Conv, Gemm or MatMul with constant weights).</source>
        <translation>« %1 » n&apos;est pas une couche que la quantification passe en int8 (Conv, Gemm ou MatMul à poids constants).</translation>
    </message>
    <message>
        <source>&apos;%1&apos; is already kept in float.</source>
        <translation>« %1 » est déjà gardé en float.</translation>
    </message>
    <message>
        <source>Quantize %1 with &apos;%2&apos; in float</source>
        <translation>Quantification de %1 avec « %2 » en float</translation>
    </message>
    <message>
        <source>Keep &apos;%1&apos; in float and quantize again</source>
        <translation>Garder « %1 » en float et quantifier à nouveau</translation>
    </message>
    <message numerus="yes">
        <source>before (%n int8 layer(s))</source>
        <translation>
            <numerusform>avant (%n couche int8)</numerusform>
            <numerusform>avant (%n couches int8)</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>with &apos;%1&apos; in float (%n int8 layer(s))</source>
        <translation>
            <numerusform>avec « %1 » en float (%n couche int8)</numerusform>
            <numerusform>avec « %1 » en float (%n couches int8)</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%1, %n int8 layer(s)</source>
        <translation>
            <numerusform>%1, %n couche int8</numerusform>
            <numerusform>%1, %n couches int8</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>embark::ui::StudioSession</name>
    <message>
        <source>&apos;%1&apos; (%2)</source>
        <translation>« %1 » (%2)</translation>
    </message>
    <message numerus="yes">
        <source>Cannot run on any board or kernel library: %n node(s) use an op Embark does not support (marked red in the graph): %1. Replace them in the model (or export it without them) to deploy it.</source>
        <translation>
            <numerusform>Exécution impossible sur toute carte et toute bibliothèque de noyaux : %n nœud utilise une opération qu&apos;Embark ne prend pas en charge (en rouge dans le graphe) : %1. Remplacez-le dans le modèle (ou exportez celui-ci sans lui) pour le déployer.</numerusform>
            <numerusform>Exécution impossible sur toute carte et toute bibliothèque de noyaux : %n nœuds utilisent une opération qu&apos;Embark ne prend pas en charge (en rouge dans le graphe) : %1. Remplacez-les dans le modèle (ou exportez celui-ci sans eux) pour le déployer.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>embark::ui::StudioSweep</name>
    <message>
        <source>S&amp;weep...</source>
        <translation>&amp;Balayage…</translation>
    </message>
    <message>
        <source>Benchmark models on every matching board with every chosen library, as one job: a table and a chart with the best library per board</source>
        <translation>Mesurer des modèles sur chaque carte correspondante avec chaque bibliothèque choisie, en une seule tâche : un tableau et un graphique avec la meilleure bibliothèque par carte</translation>
    </message>
    <message>
        <source>A sweep needs at least one model and one library.</source>
        <translation>Un balayage demande au moins un modèle et une bibliothèque.</translation>
    </message>
    <message>
        <source>Sweep %1 on %2</source>
        <translation>Balayage de %1 sur %2</translation>
    </message>
    <message>
        <source>cancelled</source>
        <translation>annulé</translation>
    </message>
</context>
<context>
    <name>embark::ui::SweepDialog</name>
    <message>
        <source>Int8 cells too (each model quantized with its test data)</source>
        <translation>Cellules int8 aussi (chaque modèle quantifié avec ses données de test)</translation>
    </message>
    <message>
        <source>Sweep</source>
        <translation>Balayage</translation>
    </message>
    <message>
        <source>Add...</source>
        <translation>Ajouter…</translation>
    </message>
    <message>
        <source>Remove</source>
        <translation>Retirer</translation>
    </message>
    <message>
        <source>sim-*,k1-farm</source>
        <translation>sim-*,k1-farm</translation>
    </message>
    <message>
        <source>Board ids or wildcards, comma-separated</source>
        <translation>Identifiants de cartes ou jokers, séparés par des virgules</translation>
    </message>
    <message>
        <source>Each node on the library measured fastest on the board</source>
        <translation>Chaque nœud sur la bibliothèque mesurée la plus rapide sur la carte</translation>
    </message>
    <message>
        <source>Models:</source>
        <translation>Modèles :</translation>
    </message>
    <message>
        <source>Boards:</source>
        <translation>Cartes :</translation>
    </message>
    <message>
        <source>Libraries:</source>
        <translation>Bibliothèques :</translation>
    </message>
    <message>
        <source>Iterations:</source>
        <translation>Itérations :</translation>
    </message>
    <message>
        <source>Run sweep</source>
        <translation>Lancer le balayage</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>Annuler</translation>
    </message>
    <message>
        <source>Models to sweep</source>
        <translation>Modèles à balayer</translation>
    </message>
    <message>
        <source>ONNX models (*.onnx)</source>
        <translation>Modèles ONNX (*.onnx)</translation>
    </message>
    <message>
        <source>Name at least one board (an id or a wildcard such as sim-*).</source>
        <translation>Indiquez au moins une carte (un identifiant ou un joker comme sim-*).</translation>
    </message>
    <message numerus="yes">
        <source>%n board(s): %1</source>
        <translation>
            <numerusform>%n carte : %1</numerusform>
            <numerusform>%n cartes : %1</numerusform>
        </translation>
    </message>
    <message>
        <source>Choose at least one kernel library.</source>
        <translation>Choisissez au moins une bibliothèque de noyaux.</translation>
    </message>
    <message>
        <source>Add at least one model.</source>
        <translation>Ajoutez au moins un modèle.</translation>
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
        <translation>Annuler le balayage</translation>
    </message>
    <message>
        <source>Export chart...</source>
        <translation>Exporter le graphique…</translation>
    </message>
    <message>
        <source>Sweep</source>
        <translation>Balayage</translation>
    </message>
    <message>
        <source>Model</source>
        <translation>Modèle</translation>
    </message>
    <message>
        <source>Board</source>
        <translation>Carte</translation>
    </message>
    <message>
        <source>Library</source>
        <translation>Bibliothèque</translation>
    </message>
    <message>
        <source>Precision</source>
        <translation>Précision</translation>
    </message>
    <message>
        <source>State</source>
        <translation>État</translation>
    </message>
    <message>
        <source>Median</source>
        <translation>Médiane</translation>
    </message>
    <message>
        <source>95% CI</source>
        <translation>IC à 95 %</translation>
    </message>
    <message>
        <source>max_rel</source>
        <translation>max_rel</translation>
    </message>
    <message>
        <source>Cosine</source>
        <translation>Cosinus</translation>
    </message>
    <message>
        <source>Run</source>
        <translation>Exécution</translation>
    </message>
    <message>
        <source>Device</source>
        <translation>Appareil</translation>
    </message>
    <message>
        <source>Cancelling the sweep...</source>
        <translation>Annulation du balayage…</translation>
    </message>
    <message>
        <source>pending</source>
        <translation>en attente</translation>
    </message>
    <message>
        <source>running</source>
        <translation>en cours</translation>
    </message>
    <message>
        <source>ok</source>
        <translation>ok</translation>
    </message>
    <message>
        <source>failed</source>
        <translation>échec</translation>
    </message>
    <message>
        <source>cancelled</source>
        <translation>annulée</translation>
    </message>
    <message>
        <source>skipped</source>
        <translation>ignorée</translation>
    </message>
    <message>
        <source>Sweep %1</source>
        <translation>Balayage %1</translation>
    </message>
    <message>
        <source>The fastest library of %1 on %2</source>
        <translation>La bibliothèque la plus rapide pour %1 sur %2</translation>
    </message>
    <message numerus="yes">
        <source>Sweep %1: %n cell(s)</source>
        <translation>
            <numerusform>Balayage %1 : %n cellule</numerusform>
            <numerusform>Balayage %1 : %n cellules</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n failed</source>
        <translation>
            <numerusform>%n en échec</numerusform>
            <numerusform>%n en échec</numerusform>
        </translation>
    </message>
    <message>
        <source>Every cell is a stored run (Run history); the best library of each model on each board is highlighted.</source>
        <translation>Chaque cellule est une exécution enregistrée (Historique des exécutions) ; la meilleure bibliothèque de chaque modèle sur chaque carte est mise en évidence.</translation>
    </message>
    <message numerus="yes">
        <source>%1 of %n cell(s) done</source>
        <translation>
            <numerusform>%1 cellule sur %n terminée</numerusform>
            <numerusform>%1 cellules sur %n terminées</numerusform>
        </translation>
    </message>
    <message>
        <source>Export the sweep chart</source>
        <translation>Exporter le graphique du balayage</translation>
    </message>
    <message>
        <source>PNG image (*.png);;SVG image (*.svg);;PDF (*.pdf)</source>
        <translation>Image PNG (*.png);;Image SVG (*.svg);;PDF (*.pdf)</translation>
    </message>
    <message>
        <source>Export chart</source>
        <translation>Exporter le graphique</translation>
    </message>
</context>
<context>
    <name>embark::ui::TargetPanel</name>
    <message>
        <source>New board...</source>
        <translation>Nouvelle carte…</translation>
    </message>
    <message>
        <source>Edit board...</source>
        <translation>Modifier la carte…</translation>
    </message>
    <message>
        <source>Create a user board, starting from the selected one</source>
        <translation>Créer une carte utilisateur à partir de celle sélectionnée</translation>
    </message>
    <message>
        <source>Edit the selected board (a built-in board is saved as a user board)</source>
        <translation>Modifier la carte sélectionnée (une carte intégrée est enregistrée comme carte utilisateur)</translation>
    </message>
    <message>
        <source>Override</source>
        <translation>Forçage</translation>
    </message>
    <message>
        <source>Library</source>
        <translation>Bibliothèque</translation>
    </message>
    <message>
        <source>Add overrides from a node&apos;s context menu in the graph</source>
        <translation>Ajoutez des forçages depuis le menu contextuel d&apos;un nœud du graphe</translation>
    </message>
    <message>
        <source>Remove override</source>
        <translation>Supprimer le forçage</translation>
    </message>
    <message>
        <source>Board:</source>
        <translation>Carte :</translation>
    </message>
    <message>
        <source>Kernel library:</source>
        <translation>Bibliothèque de noyaux :</translation>
    </message>
    <message>
        <source>%1 (user)</source>
        <translation>%1 (utilisateur)</translation>
    </message>
    <message>
        <source>%1
%2, %3 cores, %4; runs by %5</source>
        <translation>%1
%2, %3 cœurs, %4 ; exécution par %5</translation>
    </message>
    <message>
        <source>node %1</source>
        <translation>nœud %1</translation>
    </message>
    <message>
        <source>every %1</source>
        <translation>chaque %1</translation>
    </message>
    <message numerus="yes">
        <source>%1: %n node(s)</source>
        <translation>
            <numerusform>%1 : %n nœud</numerusform>
            <numerusform>%1 : %n nœuds</numerusform>
        </translation>
    </message>
    <message>
        <source>Arena %1, lower bound %2</source>
        <translation>Arène %1, borne inférieure %2</translation>
    </message>
    <message>
        <source>SSH...</source>
        <translation>SSH...</translation>
    </message>
    <message>
        <source>Connection settings of the selected board: host, user, port, key; test the connection</source>
        <translation>Paramètres de connexion de la carte sélectionnée : hôte, utilisateur, port, clé ; tester la connexion</translation>
    </message>
    <message>
        <source>Build upstream XNNPACK for this architecture into Embark&apos;s cache (embark-cli xnnpack build); exports then link it</source>
        <translation>Compiler XNNPACK amont pour cette architecture dans le cache d&apos;Embark (embark-cli xnnpack build) ; les exports le lient ensuite</translation>
    </message>
    <message>
        <source>XNNPACK: %1</source>
        <translation>XNNPACK : %1</translation>
    </message>
    <message>
        <source>Warning: %1</source>
        <translation>Attention : %1</translation>
    </message>
    <message>
        <source>Build XNNPACK for %1...</source>
        <translation>Compiler XNNPACK pour %1...</translation>
    </message>
    <message>
        <source>Embark export</source>
        <translation>Export Embark</translation>
    </message>
    <message>
        <source>ONNX Runtime</source>
        <translation>ONNX Runtime</translation>
    </message>
    <message>
        <source>Runtime:</source>
        <translation>Moteur d&apos;exécution :</translation>
    </message>
    <message>
        <source>Benchmarks run the model with Embark&apos;s export or with %1</source>
        <translation>Les bancs d&apos;essai exécutent le modèle avec l&apos;export Embark ou avec %1</translation>
    </message>
    <message>
        <source>This board has no ONNX Runtime: benchmarks run Embark&apos;s export</source>
        <translation>Cette carte n&apos;a pas ONNX Runtime : les bancs d&apos;essai exécutent l&apos;export Embark</translation>
    </message>
    <message>
        <source>EP options...</source>
        <translation>Options de l&apos;EP...</translation>
    </message>
    <message>
        <source>Options of the SpacemiT execution provider (threads, affinity, dumps, profile, filters)</source>
        <translation>Options du fournisseur d&apos;exécution SpacemiT (threads, affinité, vidages, profil, filtres)</translation>
    </message>
    <message>
        <source>EP defaults</source>
        <translation>Valeurs par défaut de l&apos;EP</translation>
    </message>
    <message>
        <source>auto: each node runs on the library measured fastest for it on this board</source>
        <translation>auto : chaque nœud s’exécute sur la bibliothèque mesurée la plus rapide pour lui sur cette carte</translation>
    </message>
    <message>
        <source>Board</source>
        <translation>Carte</translation>
    </message>
    <message>
        <source>Create a user board or edit the selected one</source>
        <translation>Créer une carte utilisateur ou modifier celle sélectionnée</translation>
    </message>
    <message>
        <source>auto: the nodes are measured on the board once a model is open</source>
        <translation>auto : les nœuds sont mesurés sur la carte dès qu’un modèle est ouvert</translation>
    </message>
    <message>
        <source>auto: the measurement failed, every node stays on portable: %1</source>
        <translation>auto : la mesure a échoué, tous les nœuds restent sur portable : %1</translation>
    </message>
    <message>
        <source>auto: measuring each node on %1 (see Jobs); portable meanwhile</source>
        <translation>auto : mesure de chaque nœud sur %1 (voir Tâches) ; portable en attendant</translation>
    </message>
    <message>
        <source>%1 on %2</source>
        <translation>%1 sur %2</translation>
    </message>
    <message numerus="yes">
        <source>auto: %n node(s) measured on %1 (%2 now, %3 cached): %4</source>
        <translation>
            <numerusform>auto : %n nœud mesuré sur %1 (%2 maintenant, %3 en cache) : %4</numerusform>
            <numerusform>auto : %n nœuds mesurés sur %1 (%2 maintenant, %3 en cache) : %4</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>embark::ui::UserGuideDialog</name>
    <message>
        <source>Embark user guide</source>
        <translation>Guide de l&apos;utilisateur d&apos;Embark</translation>
    </message>
</context>
<context>
    <name>embark::ui::WelcomePage</name>
    <message>
        <source>&lt;h2&gt;Welcome to Embark&lt;/h2&gt;&lt;p&gt;From an ONNX model to an embedded board: inspect it, choose a board and a kernel library, run it and compare the runs.&lt;/p&gt;</source>
        <translation>&lt;h2&gt;Bienvenue dans Embark&lt;/h2&gt;&lt;p&gt;D&apos;un modèle ONNX à une carte embarquée : l&apos;inspecter, choisir une carte et une bibliothèque de noyaux, l&apos;exécuter et comparer les exécutions.&lt;/p&gt;</translation>
    </message>
    <message>
        <source>Open model...</source>
        <translation>Ouvrir un modèle...</translation>
    </message>
    <message>
        <source>Open the sample model (%1)</source>
        <translation>Ouvrir le modèle d&apos;exemple (%1)</translation>
    </message>
    <message>
        <source>Recent models</source>
        <translation>Modèles récents</translation>
    </message>
    <message>
        <source>Recent runs</source>
        <translation>Exécutions récentes</translation>
    </message>
    <message>
        <source>No model opened yet</source>
        <translation>Aucun modèle ouvert pour le moment</translation>
    </message>
    <message>
        <source>No run yet: open a model and press F5</source>
        <translation>Aucune exécution : ouvrez un modèle et appuyez sur F5</translation>
    </message>
</context>
<context>
    <name>embark::ui::Workspaces</name>
    <message>
        <source>Workspaces</source>
        <translation>Espaces de travail</translation>
    </message>
    <message>
        <source>&amp;Workspace</source>
        <translation>Espace de &amp;travail</translation>
    </message>
    <message>
        <source>Inspect the model: the graphs before and after fusion, Properties, Target and the rewrites (Ctrl+1)</source>
        <translation>Inspecter le modèle : les graphes avant et après fusion, les propriétés, la cible et les réécritures (Ctrl+1)</translation>
    </message>
    <message>
        <source>Run on the board: the graphs, Target, the jobs and the charts of the run (Ctrl+2)</source>
        <translation>Exécuter sur la carte : les graphes, la cible, les tâches et les graphiques de l&apos;exécution (Ctrl+2)</translation>
    </message>
    <message>
        <source>Compare runs: the run history beside the charts (Ctrl+3)</source>
        <translation>Comparer les exécutions : l&apos;historique à côté des graphiques (Ctrl+3)</translation>
    </message>
    <message>
        <source>Inspect</source>
        <translation>Inspecter</translation>
    </message>
    <message>
        <source>Run</source>
        <translation>Exécuter</translation>
    </message>
    <message>
        <source>Compare</source>
        <translation>Comparer</translation>
    </message>
</context>
<context>
    <name>main</name>
    <message>
        <source>Embark studio: from an ONNX model to an embedded board.</source>
        <translation>Studio Embark : d&apos;un modèle ONNX à une carte embarquée.</translation>
    </message>
    <message>
        <source>ONNX model to open.</source>
        <translation>Modèle ONNX à ouvrir.</translation>
    </message>
    <message>
        <source>Save screenshots of the main views into DIR, then quit.</source>
        <translation>Enregistrer des captures des vues principales dans DIR, puis quitter.</translation>
    </message>
</context>
</TS>
