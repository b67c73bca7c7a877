"""The built-in Henyo word bank, written for this project.

One block per category and language: one word or short phrase per line.
Categories follow the sheet (Tao, Bagay, Hayop, Pagkain, Lugar); languages are
Filipino (``fil``) and English (``en``). Words are everyday things a library
crowd can guess in two minutes of yes/no questions.
"""

from __future__ import annotations

BANK_TEXT: dict[tuple[str, str], str] = {
    ("Tao", "fil"): """
        guro
        pulis
        bumbero
        magsasaka
        mangingisda
        karpintero
        tindera
        kusinero
        sundalo
        abogado
        inhinyero
        drayber
        barbero
        mananahi
        panadero
        kartero
        albularyo
        lola
        lolo
        nanay
        tatay
        kuya
        ate
        bunso
        sanggol
        binata
        dalaga
        kapitbahay
        kaibigan
        pari
        madre
        hari
        reyna
        prinsesa
        mag-aaral
        labandera
        artista
        mang-aawit
        manunulat
        pintor
        Jose Rizal
        Andres Bonifacio
        Lapu-Lapu
        Gabriela Silang
        Tandang Sora
        Apolinario Mabini
    """,
    ("Tao", "en"): """
        teacher
        doctor
        nurse
        firefighter
        police officer
        farmer
        carpenter
        baker
        chef
        soldier
        pilot
        lawyer
        engineer
        librarian
        dentist
        mail carrier
        tailor
        singer
        actor
        astronaut
        scientist
        king
        queen
        princess
        grandmother
        grandfather
        baby
        neighbor
        best friend
        student
        principal
        janitor
        cashier
        waiter
        lifeguard
        magician
        clown
        detective
        judge
        president
        taxi driver
        plumber
        architect
        security guard
    """,
    ("Bagay", "fil"): """
        lapis
        papel
        aklat
        kuwaderno
        pambura
        gunting
        payong
        tsinelas
        sapatos
        sombrero
        salamin
        suklay
        sipilyo
        unan
        kumot
        banig
        kama
        upuan
        mesa
        bintana
        pinto
        susi
        kandado
        relo
        orasan
        kutsara
        tinidor
        plato
        baso
        kaldero
        kawali
        sandok
        walis
        walis tingting
        bentilador
        bisikleta
        bangka
        dyip
        lobo
        saranggola
        trumpo
        gitara
        tambol
        bayong
        banga
        palayok
        salakot
        kalan
        lampara
        parol
        tabo
        timba
        duyan
        bola
        pitaka
        kandila
    """,
    ("Bagay", "en"): """
        pencil
        notebook
        eraser
        scissors
        umbrella
        slippers
        shoes
        hat
        eyeglasses
        comb
        toothbrush
        pillow
        blanket
        bed
        chair
        table
        window
        door
        key
        padlock
        wristwatch
        clock
        cellphone
        spoon
        fork
        plate
        drinking glass
        frying pan
        broom
        electric fan
        television
        bicycle
        kite
        guitar
        drum
        backpack
        ladder
        candle
        mirror
        bookshelf
        library card
        laptop
        calculator
        stapler
        rubber band
        paper clip
        flashlight
        alarm clock
        remote control
        raincoat
    """,
    ("Hayop", "fil"): """
        aso
        pusa
        baboy
        baka
        kalabaw
        kabayo
        kambing
        tupa
        manok
        pato
        kalapati
        agila
        maya
        loro
        unggoy
        daga
        ahas
        butiki
        palaka
        pagong
        buwaya
        isda
        pating
        balyena
        pugita
        alimango
        hipon
        pusit
        lamok
        langaw
        langgam
        ipis
        gagamba
        paruparo
        tutubi
        bubuyog
        alitaptap
        tipaklong
        uod
        kuneho
        usa
        tarsier
        tamaraw
        baboy-ramo
        kuwago
        dikya
        talangka
        tuko
        bayawak
        paniki
    """,
    ("Hayop", "en"): """
        dog
        cat
        pig
        cow
        water buffalo
        horse
        goat
        sheep
        chicken
        duck
        pigeon
        eagle
        parrot
        monkey
        mouse
        snake
        lizard
        frog
        turtle
        crocodile
        shark
        whale
        octopus
        crab
        shrimp
        squid
        mosquito
        housefly
        ant
        cockroach
        spider
        butterfly
        dragonfly
        honeybee
        firefly
        grasshopper
        rabbit
        deer
        owl
        bat
        elephant
        giraffe
        lion
        tiger
        zebra
        kangaroo
        penguin
        dolphin
        camel
        panda
        polar bear
        jellyfish
        peacock
    """,
    ("Pagkain", "fil"): """
        adobo
        sinigang
        kare-kare
        lechon
        pansit
        lumpia
        sisig
        tinola
        bulalo
        lugaw
        arroz caldo
        tapa
        tosino
        longganisa
        daing
        tuyo
        bibingka
        puto
        kutsinta
        suman
        biko
        halo-halo
        taho
        turon
        pandesal
        ensaymada
        leche flan
        ube halaya
        balut
        kwek-kwek
        champorado
        kanin
        sinangag
        itlog
        pinakbet
        laing
        dinuguan
        kaldereta
        menudo
        mangga
        saging
        pinya
        niyog
        buko
        kalamansi
        bayabas
        lansones
        atsara
        bagoong
        patis
    """,
    ("Pagkain", "en"): """
        rice
        bread
        noodles
        spaghetti
        hamburger
        hotdog
        fried chicken
        french fries
        pizza
        sandwich
        pancake
        waffle
        oatmeal
        soup
        salad
        steak
        bacon
        egg
        cheese
        butter
        peanut butter
        jam
        honey
        chocolate
        ice cream
        cake
        cookie
        doughnut
        popcorn
        candy
        apple
        banana
        orange
        grapes
        watermelon
        pineapple
        mango
        strawberry
        coconut
        carrot
        potato
        tomato
        onion
        garlic
        corn
        milk
        coffee
        tea
        lemonade
        cupcake
    """,
    ("Lugar", "fil"): """
        paaralan
        silid-aklatan
        simbahan
        palengke
        ospital
        bahay
        kusina
        banyo
        sala
        bakuran
        hardin
        bukid
        palayan
        bundok
        bulkan
        dagat
        ilog
        lawa
        talon
        kuweba
        gubat
        dalampasigan
        isla
        plasa
        parke
        tindahan
        sari-sari store
        karinderya
        panaderya
        botika
        munisipyo
        kapilya
        sementeryo
        paliparan
        pantalan
        Maynila
        Intramuros
        Luneta
        Baguio
        Cebu
        Boracay
        Bohol
        Palawan
        Bulkang Mayon
        Tagaytay
        Vigan
        Chocolate Hills
        Banaue Rice Terraces
    """,
    ("Lugar", "en"): """
        school
        library
        church
        market
        hospital
        house
        kitchen
        bathroom
        living room
        backyard
        garden
        farm
        mountain
        volcano
        beach
        river
        lake
        waterfall
        cave
        forest
        island
        park
        zoo
        museum
        airport
        train station
        bus stop
        post office
        fire station
        police station
        bank
        bakery
        pharmacy
        supermarket
        shopping mall
        restaurant
        cinema
        stadium
        playground
        swimming pool
        classroom
        hotel
        office
        factory
        bridge
        desert
        jungle
        outer space
        moon
        Mount Everest
        Tokyo
        Paris
    """,
}
