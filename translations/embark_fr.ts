<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="fr">
<context>
    <name>Language</name>
    <message>
        <source>System language</source>
        <translation>Langue du système</translation>
    </message>
</context>
<context>
    <name>LibraryAssignment</name>
    <message>
        <source>unknown kernel library '%1'</source>
        <translation>bibliothèque de noyaux inconnue « %1 »</translation>
    </message>
    <message>
        <source>%1 (%2) refused: %3. </source>
        <translation>%1 (%2) refusé : %3. </translation>
    </message>
    <message>
        <source>node override</source>
        <translation>forçage du nœud</translation>
    </message>
    <message>
        <source>op override</source>
        <translation>forçage de l'opérateur</translation>
    </message>
    <message>
        <source>chosen library</source>
        <translation>bibliothèque choisie</translation>
    </message>
    <message>
        <source>portable fallback</source>
        <translation>repli sur portable</translation>
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
        <translation>nom d'hôte ou alias de ~/.ssh/config</translation>
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
        <translation>Jeu d'instructions :</translation>
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
        <translation>Préfixe d'exécution :</translation>
    </message>
    <message>
        <source>Id: use lower-case letters, digits, '.', '_' or '-' (it names the file).</source>
        <translation>Identifiant : utilisez des minuscules, des chiffres, « . », « _ » ou « - » (il nomme le fichier).</translation>
    </message>
    <message>
        <source>SSH host: an SSH board needs a host name or an ~/.ssh/config alias.</source>
        <translation>Hôte SSH : une carte SSH a besoin d'un nom d'hôte ou d'un alias de ~/.ssh/config.</translation>
    </message>
    <message>
        <source>Cannot save board</source>
        <translation>Impossible d'enregistrer la carte</translation>
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
        <source>Cannot export to '%1': use a .png, .pdf, .svg or .csv file name.</source>
        <translation>Impossible d'exporter vers « %1 » : utilisez un nom de fichier .png, .pdf, .svg ou .csv.</translation>
    </message>
    <message>
        <source>Cannot write '%1': check that the folder exists and is writable.</source>
        <translation>Impossible d'écrire « %1 » : vérifiez que le dossier existe et est accessible en écriture.</translation>
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
        <translation>Échec de l'export</translation>
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
</context>
<context>
    <name>embark::ui::GraphPanel</name>
    <message>
        <source>Find node by name or op (Ctrl+F)</source>
        <translation>Chercher un nœud par nom ou opérateur (Ctrl+F)</translation>
    </message>
    <message numerus="yes">
        <source>%n match(es)</source>
        <translation><numerusform>%n résultat</numerusform><numerusform>%n résultats</numerusform></translation>
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
        <source>%1 '%2'</source>
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
        <source> median %1 ms</source>
        <translation> médiane %1 ms</translation>
    </message>
    <message>
        <source> p90 %1 ms</source>
        <translation> p90 %1 ms</translation>
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
        <source> first divergent layer: %1</source>
        <translation> première couche divergente : %1</translation>
    </message>
</context>
<context>
    <name>embark::ui::LayerTimingChart</name>
    <message>
        <source>Per-layer timing</source>
        <translation>Temps par couche</translation>
    </message>
    <message>
        <source>Slowest first</source>
        <translation>Les plus lentes d'abord</translation>
    </message>
    <message>
        <source>time per layer (ms)</source>
        <translation>temps par couche (ms)</translation>
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
        <translation>La nouvelle langue s'appliquera au prochain démarrage d'Embark.</translation>
    </message>
    <message>
        <source>&amp;Help</source>
        <translation>&amp;Aide</translation>
    </message>
    <message>
        <source>&amp;About Embark</source>
        <translation>À &amp;propos d'Embark</translation>
    </message>
    <message>
        <source>About Embark</source>
        <translation>À propos d'Embark</translation>
    </message>
    <message>
        <source>&lt;h3&gt;Embark %1&lt;/h3&gt;&lt;p&gt;From an ONNX model to an embedded board: inspect, fuse, choose a board and kernel library, export, run and compare.&lt;/p&gt;</source>
        <translation>&lt;h3&gt;Embark %1&lt;/h3&gt;&lt;p&gt;D'un modèle ONNX à une carte embarquée : inspecter, fusionner, choisir une carte et une bibliothèque de noyaux, exporter, exécuter et comparer.&lt;/p&gt;</translation>
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
        <translation>Impossible d'ouvrir le modèle</translation>
    </message>
    <message>
        <source>Cannot open %1</source>
        <translation>Impossible d'ouvrir %1</translation>
    </message>
    <message>
        <source>Opened %1: %2 nodes, %3 after fusion</source>
        <translation>%1 ouvert : %2 nœuds, %3 après fusion</translation>
    </message>
    <message>
        <source>Run node '%1' on</source>
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
        <source>Opening %1...</source>
        <translation>Ouverture de %1...</translation>
    </message>
    <message>
        <source>superseded by another model</source>
        <translation>remplacé par un autre modèle</translation>
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
        <translation>étape de l'ordonnancement</translation>
    </message>
    <message>
        <source>arena offset (KiB)</source>
        <translation>décalage dans l'arène (Kio)</translation>
    </message>
    <message>
        <source>live bytes</source>
        <translation>octets vivants</translation>
    </message>
    <message>
        <source>arena %1 KiB</source>
        <translation>arène %1 Kio</translation>
    </message>
    <message>
        <source>lower bound %1 KiB</source>
        <translation>borne inférieure %1 Kio</translation>
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
        <translation>Provenance (nœuds ONNX d'origine)</translation>
    </message>
    <message>
        <source>(none recorded)</source>
        <translation>(aucune enregistrée)</translation>
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
        <source>%1 - %2</source>
        <translation>%1 - %2</translation>
    </message>
    <message>
        <source>time difference (ms)</source>
        <translation>écart de temps (ms)</translation>
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
        <source>Rewrites made by the "after" stage:</source>
        <translation>Réécritures faites par l'étape « après » :</translation>
    </message>
    <message>
        <source>%1 (%2 nodes, %3 rewrites)</source>
        <translation>%1 (%2 nœuds, %3 réécritures)</translation>
    </message>
    <message>
        <source>(no rewrites in this stage)</source>
        <translation>(aucune réécriture à cette étape)</translation>
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
        <source>Add overrides from a node's context menu in the graph</source>
        <translation>Ajoutez des forçages depuis le menu contextuel d'un nœud du graphe</translation>
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
        <translation><numerusform>%1 : %n nœud</numerusform><numerusform>%1 : %n nœuds</numerusform></translation>
    </message>
    <message>
        <source>Arena %1, lower bound %2</source>
        <translation>Arène %1, borne inférieure %2</translation>
    </message>
</context>
<context>
    <name>main</name>
    <message>
        <source>Embark studio: from an ONNX model to an embedded board.</source>
        <translation>Studio Embark : d'un modèle ONNX à une carte embarquée.</translation>
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
        <source>Nothing to deploy yet: build the export first (Ctrl+Shift+B).</source>
        <translation>Rien à déployer : compilez d&apos;abord l&apos;export (Ctrl+Maj+B).</translation>
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
</context>
</TS>
